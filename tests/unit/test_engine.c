/*
 * test_engine.c - every transition of every category in the spec, the
 * change that reimages and the near-miss that does not, in both notations
 * (azurerm attributes and ARM bodies), run through the real rule files and
 * the real engine.  Each row: before and after documents of one updated
 * resource, and the rule ids the engine must report ("" for none).
 */
#include "test_common.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "error.h"
#include "rules.h"

#define AZ "azurerm_kubernetes_cluster"
#define AZP "azurerm_kubernetes_cluster_node_pool"
#define MC "Microsoft.ContainerService/managedClusters"
#define AP MC "/agentPools"
#define TF NDP_NOTATION_AZURERM
#define ARM NDP_NOTATION_ARM

/* azurerm network_profile block, ARM networkProfile. */
#define NP(x) "{'network_profile':[{" x "}]}"
#define ANP(x) "{'properties':{'networkProfile':{" x "}}}"
#define APROP(x) "{'properties':{" x "}}"
/* A pool inside an ARM cluster body, and an ARM agentPools child body. */
#define POOL1(x) "{'properties':{'agentPoolProfiles':[{'name':'np1'," x "}]}}"

struct engine_case {
    const char *name;
    enum ndp_notation notation;
    const char *type;
    const char *before;
    const char *after;
    const char *expect;
};

static const struct engine_case cases[] = {
    /* network-policy: none <-> azure/calico reimages; azure <-> calico not */
    { "np none->azure", TF, AZ, NP("'network_policy':''"), NP("'network_policy':'azure'"), "NDP101" },
    { "np none->calico", TF, AZ, NP("'network_policy':''"), NP("'network_policy':'calico'"), "NDP101" },
    { "np azure->none", TF, AZ, NP("'network_policy':'azure'"), NP("'network_policy':''"), "NDP101" },
    { "np calico->none", TF, AZ, NP("'network_policy':'calico'"), NP("'network_policy':''"), "NDP101" },
    { "np azure->calico", TF, AZ, NP("'network_policy':'azure'"), NP("'network_policy':'calico'"), "" },
    { "np calico->azure", TF, AZ, NP("'network_policy':'calico'"), NP("'network_policy':'azure'"), "" },
    { "np azure->cilium", TF, AZ, NP("'network_policy':'azure'"), NP("'network_policy':'cilium'"), "" },
    { "np unchanged", TF, AZ, NP("'network_policy':'azure'"), NP("'network_policy':'azure'"), "" },
    { "arm np none->azure", ARM, MC, ANP("'networkPolicy':'none'"), ANP("'networkPolicy':'azure'"), "NDP101" },
    { "arm np absent->calico", ARM, MC, ANP("'podCidr':'10.0.0.0/16'"), ANP("'networkPolicy':'Calico'"), "NDP101" },
    { "arm np azure->none", ARM, MC, ANP("'networkPolicy':'azure'"), ANP("'networkPolicy':'none'"), "NDP101" },
    { "arm np calico->absent", ARM, MC, ANP("'networkPolicy':'calico'"), ANP("'podCidr':'x'"), "NDP101" },
    { "arm np azure->calico", ARM, MC, ANP("'networkPolicy':'azure'"), ANP("'networkPolicy':'calico'"), "" },
    { "arm np none->absent", ARM, MC, ANP("'networkPolicy':'none'"), ANP("'podCidr':'x'"), "" },
    { "arm np case only", ARM, MC, ANP("'networkPolicy':'azure'"), ANP("'networkPolicy':'Azure'"), "" },
    /* network-policy: Azure CNI -> Azure CNI Overlay */
    { "cni azure->overlay", TF, AZ, NP("'network_plugin':'azure','network_plugin_mode':''"), NP("'network_plugin':'azure','network_plugin_mode':'overlay'"), "NDP102" },
    /* spec §11: kubenet -> Azure CNI Overlay is the same covered operation */
    { "cni kubenet->overlay", TF, AZ, NP("'network_plugin':'kubenet','network_plugin_mode':''"), NP("'network_plugin':'azure','network_plugin_mode':'overlay'"), "NDP102" },
    { "cni none->overlay", TF, AZ, NP("'network_plugin':'none','network_plugin_mode':''"), NP("'network_plugin':'azure','network_plugin_mode':'overlay'"), "" },
    { "cni overlay unchanged", TF, AZ, NP("'network_plugin':'azure','network_plugin_mode':'overlay'"), NP("'network_plugin':'azure','network_plugin_mode':'overlay'"), "" },
    { "arm cni azure->overlay", ARM, MC, ANP("'networkPlugin':'azure'"), ANP("'networkPlugin':'azure','networkPluginMode':'overlay'"), "NDP102" },
    { "arm cni kubenet->overlay", ARM, MC, ANP("'networkPlugin':'kubenet'"), ANP("'networkPlugin':'azure','networkPluginMode':'overlay'"), "NDP102" },
    /* node-os-upgrade-channel: every move into or out of Unmanaged */
    { "os Unmanaged->None", TF, AZ, "{'node_os_upgrade_channel':'Unmanaged'}", "{'node_os_upgrade_channel':'None'}", "NDP103" },
    { "os unset->Unmanaged", TF, AZ, "{'node_os_upgrade_channel':''}", "{'node_os_upgrade_channel':'Unmanaged'}", "NDP103" },
    { "os SecurityPatch->Unmanaged", TF, AZ, "{'node_os_upgrade_channel':'SecurityPatch'}", "{'node_os_upgrade_channel':'Unmanaged'}", "NDP103" },
    { "os NodeImage->Unmanaged", TF, AZ, "{'node_os_upgrade_channel':'NodeImage'}", "{'node_os_upgrade_channel':'Unmanaged'}", "NDP103" },
    { "os None->Unmanaged", TF, AZ, "{'node_os_upgrade_channel':'None'}", "{'node_os_upgrade_channel':'Unmanaged'}", "NDP103" },
    { "os Unmanaged->SecurityPatch", TF, AZ, "{'node_os_upgrade_channel':'Unmanaged'}", "{'node_os_upgrade_channel':'SecurityPatch'}", "NDP103" },
    { "os Unmanaged->NodeImage", TF, AZ, "{'node_os_upgrade_channel':'Unmanaged'}", "{'node_os_upgrade_channel':'NodeImage'}", "NDP103" },
    { "os None->SecurityPatch", TF, AZ, "{'node_os_upgrade_channel':'None'}", "{'node_os_upgrade_channel':'SecurityPatch'}", "" },
    { "os NodeImage->SecurityPatch", TF, AZ, "{'node_os_upgrade_channel':'NodeImage'}", "{'node_os_upgrade_channel':'SecurityPatch'}", "" },
    { "os None->NodeImage", TF, AZ, "{'node_os_upgrade_channel':'None'}", "{'node_os_upgrade_channel':'NodeImage'}", "" },
    { "os 3.x name", TF, AZ, "{'node_os_channel_upgrade':'None'}", "{'node_os_channel_upgrade':'Unmanaged'}", "NDP103" },
    { "arm os unset->Unmanaged", ARM, MC, APROP("'autoUpgradeProfile':{}"), APROP("'autoUpgradeProfile':{'nodeOSUpgradeChannel':'unmanaged'}"), "NDP103" },
    { "arm os Unmanaged->SecurityPatch", ARM, MC, APROP("'autoUpgradeProfile':{'nodeOSUpgradeChannel':'Unmanaged'}"), APROP("'autoUpgradeProfile':{'nodeOSUpgradeChannel':'SecurityPatch'}"), "NDP103" },
    { "arm os None->SecurityPatch", ARM, MC, APROP("'autoUpgradeProfile':{'nodeOSUpgradeChannel':'None'}"), APROP("'autoUpgradeProfile':{'nodeOSUpgradeChannel':'SecurityPatch'}"), "" },
    /* dual-stack */
    { "ipv4->dual", TF, AZ, NP("'ip_versions':['IPv4']"), NP("'ip_versions':['IPv4','IPv6']"), "NDP104" },
    { "dual->ipv4", TF, AZ, NP("'ip_versions':['IPv4','IPv6']"), NP("'ip_versions':['IPv4']"), "" },
    { "arm ipv4->dual", ARM, MC, ANP("'ipFamilies':['IPv4']"), ANP("'ipFamilies':['IPv4','IPv6']"), "NDP104" },
    { "arm absent->ipv4", ARM, MC, ANP("'podCidr':'x'"), ANP("'ipFamilies':['IPv4']"), "" },
    /* cilium-dataplane */
    { "dataplane azure->cilium", TF, AZ, NP("'network_data_plane':'azure'"), NP("'network_data_plane':'cilium'"), "NDP105" },
    { "dataplane cilium->azure", TF, AZ, NP("'network_data_plane':'cilium'"), NP("'network_data_plane':'azure'"), "NDP105" },
    { "dataplane unset->azure", TF, AZ, NP("'network_data_plane':''"), NP("'network_data_plane':'azure'"), "" },
    { "arm dataplane none->cilium", ARM, MC, ANP("'podCidr':'x'"), ANP("'networkDataplane':'cilium'"), "NDP105" },
    { "arm dataplane cilium->none", ARM, MC, ANP("'networkDataplane':'cilium'"), ANP("'podCidr':'x'"), "NDP105" },
    /* http-proxy */
    { "proxy url changed", TF, AZ, "{'http_proxy_config':[{'http_proxy':'http://p1:3128','https_proxy':'','no_proxy':[],'trusted_ca':''}]}", "{'http_proxy_config':[{'http_proxy':'http://p2:3128','https_proxy':'','no_proxy':[],'trusted_ca':''}]}", "NDP106" },
    { "proxy enabled (block added)", TF, AZ, "{'http_proxy_config':[]}", "{'http_proxy_config':[{'http_proxy':'http://p:3128','https_proxy':'','no_proxy':[],'trusted_ca':''}]}", "NDP106" },
    { "proxy disabled (block removed)", TF, AZ, "{'http_proxy_config':[{'https_proxy':'http://p:3128','no_proxy':['a']}]}", "{'http_proxy_config':[]}", "NDP106,NDP106" },
    { "proxy no_proxy added", TF, AZ, "{'http_proxy_config':[{'no_proxy':['a','b']}]}", "{'http_proxy_config':[{'no_proxy':['a','b','c']}]}", "NDP106" },
    /* spec §11: list order is a change (AKS compares what it is sent) */
    { "proxy no_proxy reordered", TF, AZ, "{'http_proxy_config':[{'no_proxy':['a','b']}]}", "{'http_proxy_config':[{'no_proxy':['b','a']}]}", "NDP106" },
    { "proxy no_proxy unchanged", TF, AZ, "{'http_proxy_config':[{'no_proxy':['a','b']}]}", "{'http_proxy_config':[{'no_proxy':['a','b']}]}", "" },
    { "proxy trusted ca", TF, AZ, "{'http_proxy_config':[{'trusted_ca':'AAAA'}]}", "{'http_proxy_config':[{'trusted_ca':'BBBB'}]}", "NDP107" },
    { "arm proxy disabled", ARM, MC, APROP("'httpProxyConfig':{'httpProxy':'http://p'}"), APROP("'httpProxyConfig':{'httpProxy':'http://p','enabled':false}"), "NDP108" },
    { "arm proxy re-enabled", ARM, MC, APROP("'httpProxyConfig':{'httpProxy':'http://p','enabled':false}"), APROP("'httpProxyConfig':{'httpProxy':'http://p','enabled':true}"), "NDP108" },
    { "arm proxy enabled default", ARM, MC, APROP("'httpProxyConfig':{'httpProxy':'http://p'}"), APROP("'httpProxyConfig':{'httpProxy':'http://p','enabled':true}"), "" },
    { "arm proxy effectiveNoProxy only", ARM, MC, APROP("'httpProxyConfig':{'httpProxy':'http://p','effectiveNoProxy':['a']}"), APROP("'httpProxyConfig':{'httpProxy':'http://p','effectiveNoProxy':['a','b']}"), "" },
    { "arm proxy trustedCa", ARM, MC, APROP("'httpProxyConfig':{'trustedCa':'AAAA'}"), APROP("'httpProxyConfig':{'trustedCa':'CCCC'}"), "NDP107" },
    /* custom-ca */
    { "custom ca added", TF, AZ, "{'custom_ca_trust_certificates_base64':[]}", "{'custom_ca_trust_certificates_base64':['Y2VydA==']}", "NDP109" },
    { "custom ca removed", TF, AZ, "{'custom_ca_trust_certificates_base64':['Y2VydA==']}", "{'custom_ca_trust_certificates_base64':[]}", "NDP109" },
    { "custom ca unchanged", TF, AZ, "{'custom_ca_trust_certificates_base64':['Y2VydA==']}", "{'custom_ca_trust_certificates_base64':['Y2VydA==']}", "" },
    { "arm custom ca updated", ARM, MC, APROP("'securityProfile':{'customCATrustCertificates':['QQ==']}"), APROP("'securityProfile':{'customCATrustCertificates':['Qg==']}"), "NDP109" },
    /* kubelet-identity */
    { "kubelet identity changed", TF, AZ, "{'kubelet_identity':[{'client_id':'a','object_id':'b','user_assigned_identity_id':'/x/id1'}]}", "{'kubelet_identity':[{'client_id':'a','object_id':'b','user_assigned_identity_id':'/x/id2'}]}", "NDP110" },
    { "kubelet identity case only", TF, AZ, "{'kubelet_identity':[{'user_assigned_identity_id':'/X/ID1'}]}", "{'kubelet_identity':[{'user_assigned_identity_id':'/x/id1'}]}", "" },
    { "arm kubelet identity assigned", ARM, MC, APROP("'identityProfile':{}"), APROP("'identityProfile':{'kubeletidentity':{'resourceId':'/x/id'}}"), "NDP110" },
    { "sp client id", TF, AZ, "{'service_principal':[{'client_id':'a','client_secret':'s'}]}", "{'service_principal':[{'client_id':'b','client_secret':'s'}]}", "NDP111" },
    { "sp secret reset", TF, AZ, "{'service_principal':[{'client_id':'a','client_secret':'s1'}]}", "{'service_principal':[{'client_id':'a','client_secret':'s2'}]}", "NDP112" },
    { "arm sp secret reset", ARM, MC, APROP("'servicePrincipalProfile':{'clientId':'a','secret':'s1'}"), APROP("'servicePrincipalProfile':{'clientId':'a','secret':'s2'}"), "NDP112" },
    { "sp -> managed identity", TF, AZ, "{'identity':[]}", "{'identity':[{'type':'SystemAssigned'}]}", "NDP113" },
    { "identity type change", TF, AZ, "{'identity':[{'type':'SystemAssigned'}]}", "{'identity':[{'type':'UserAssigned'}]}", "" },
    { "arm sp -> managed identity", ARM, MC, "{'properties':{}}", "{'identity':{'type':'SystemAssigned'},'properties':{}}", "NDP113" },
    /* private-dns-zone */
    { "private dns zone", TF, AZ, "{'private_dns_zone_id':'System'}", "{'private_dns_zone_id':'/x/privateDnsZones/z'}", "NDP114" },
    { "private dns zone case", TF, AZ, "{'private_dns_zone_id':'System'}", "{'private_dns_zone_id':'system'}", "" },
    { "arm private dns zone", ARM, MC, APROP("'apiServerAccessProfile':{'privateDNSZone':'system'}"), APROP("'apiServerAccessProfile':{'privateDNSZone':'none'}"), "NDP114" },
    /* apiserver-vnet-integration */
    { "vnet integration on", TF, AZ, "{'api_server_access_profile':[{'virtual_network_integration_enabled':false}]}", "{'api_server_access_profile':[{'virtual_network_integration_enabled':true}]}", "NDP115" },
    { "vnet integration off", TF, AZ, "{'api_server_access_profile':[{'virtual_network_integration_enabled':true}]}", "{'api_server_access_profile':[{'virtual_network_integration_enabled':false}]}", "" },
    { "arm vnet integration unset->true", ARM, MC, APROP("'apiServerAccessProfile':{}"), APROP("'apiServerAccessProfile':{'enableVnetIntegration':true}"), "NDP115" },
    { "arm vnet integration unset->false", ARM, MC, APROP("'apiServerAccessProfile':{}"), APROP("'apiServerAccessProfile':{'enableVnetIntegration':false}"), "" },
    /* ebpf-host-routing */
    { "arm ebpf on", ARM, MC, ANP("'advancedNetworking':{'performance':{'accelerationMode':'None'}}"), ANP("'advancedNetworking':{'performance':{'accelerationMode':'BpfVeth'}}"), "NDP116" },
    { "arm ebpf on from unset", ARM, MC, ANP("'podCidr':'x'"), ANP("'advancedNetworking':{'performance':{'accelerationMode':'BpfVeth'}}"), "NDP116" },
    { "arm ebpf off", ARM, MC, ANP("'advancedNetworking':{'performance':{'accelerationMode':'BpfVeth'}}"), ANP("'advancedNetworking':{'performance':{'accelerationMode':'None'}}"), "NDP116" },
    { "arm ebpf none->unset", ARM, MC, ANP("'advancedNetworking':{'performance':{'accelerationMode':'None'}}"), ANP("'podCidr':'x'"), "" },
    /* localdns */
    { "arm localdns mode", ARM, MC, POOL1("'localDNSProfile':{'mode':'Disabled'}"), POOL1("'localDNSProfile':{'mode':'Preferred'}"), "NDP201" },
    { "arm localdns state only", ARM, MC, POOL1("'localDNSProfile':{'mode':'Preferred','state':'Disabled'}"), POOL1("'localDNSProfile':{'mode':'Preferred','state':'Enabled'}"), "" },
    { "arm agentpool localdns added", ARM, AP, APROP("'count':3"), APROP("'count':3,'localDNSProfile':{'mode':'Preferred'}"), "NDP201" },
    { "arm localdns override", ARM, AP, APROP("'localDNSProfile':{'mode':'Required','vnetDNSOverrides':{'.':{'serveStale':'Verify'}}}"), APROP("'localDNSProfile':{'mode':'Required','vnetDNSOverrides':{'.':{'serveStale':'Immediate'}}}"), "NDP201" },
    /* trusted-launch */
    { "arm vtpm on", ARM, MC, POOL1("'securityProfile':{'enableVTPM':false}"), POOL1("'securityProfile':{'enableVTPM':true}"), "NDP202" },
    { "arm vtpm off", ARM, AP, APROP("'securityProfile':{'enableVTPM':true}"), APROP("'securityProfile':{'enableVTPM':false}"), "NDP202" },
    { "arm secure boot on", ARM, AP, APROP("'securityProfile':{}"), APROP("'securityProfile':{'enableSecureBoot':true}"), "NDP202" },
    { "arm secure boot off", ARM, MC, POOL1("'securityProfile':{'enableSecureBoot':true}"), POOL1("'securityProfile':{'enableSecureBoot':false}"), "NDP202" },
    { "arm vtpm unset->false", ARM, AP, APROP("'securityProfile':{}"), APROP("'securityProfile':{'enableVTPM':false}"), "" },
    { "arm cluster securityProfile not a pool", ARM, MC, APROP("'securityProfile':{'enableVTPM':false}"), APROP("'securityProfile':{'enableVTPM':true}"), "" },
    /* artifact-streaming */
    { "arm streaming on", ARM, AP, APROP("'count':1"), APROP("'artifactStreamingProfile':{'enabled':true}"), "NDP203" },
    { "arm streaming off", ARM, MC, POOL1("'artifactStreamingProfile':{'enabled':true}"), POOL1("'artifactStreamingProfile':{'enabled':false}"), "NDP203" },
    { "arm streaming false->unset", ARM, AP, APROP("'artifactStreamingProfile':{'enabled':false}"), APROP("'count':1"), "" },
    /* windows-gmsa */
    { "arm gmsa enabled", ARM, MC, APROP("'windowsProfile':{'gmsaProfile':{'enabled':false}}"), APROP("'windowsProfile':{'gmsaProfile':{'enabled':true}}"), "NDP204" },
    { "arm gmsa dns changed", ARM, MC, APROP("'windowsProfile':{'gmsaProfile':{'enabled':true,'dnsServer':'10.0.0.4','rootDomainName':'c.com'}}"), APROP("'windowsProfile':{'gmsaProfile':{'enabled':true,'dnsServer':'10.0.0.5','rootDomainName':'c.com'}}"), "NDP204" },
    { "arm gmsa root domain set", ARM, MC, APROP("'windowsProfile':{'gmsaProfile':{'enabled':true}}"), APROP("'windowsProfile':{'gmsaProfile':{'enabled':true,'rootDomainName':'c.com'}}"), "NDP204" },
    { "arm gmsa disabled with dns", ARM, MC, APROP("'windowsProfile':{'gmsaProfile':{'enabled':true,'dnsServer':'10.0.0.4'}}"), APROP("'windowsProfile':{'gmsaProfile':{'enabled':false}}"), "NDP204" },
    { "arm gmsa disabled without dns", ARM, MC, APROP("'windowsProfile':{'gmsaProfile':{'enabled':true}}"), APROP("'windowsProfile':{'gmsaProfile':{'enabled':false}}"), "" },
    { "arm gmsa unchanged", ARM, MC, APROP("'windowsProfile':{'gmsaProfile':{'enabled':true,'dnsServer':'10.0.0.4'}}"), APROP("'windowsProfile':{'gmsaProfile':{'enabled':true,'dnsServer':'10.0.0.4'}}"), "" },
    { "gmsa block added", TF, AZ, "{'windows_profile':[{'admin_username':'a','gmsa':[]}]}", "{'windows_profile':[{'admin_username':'a','gmsa':[{'dns_server':'10.0.0.4','root_domain':'c.com'}]}]}", "NDP205" },
    { "gmsa dns changed", TF, AZ, "{'windows_profile':[{'gmsa':[{'dns_server':'10.0.0.4','root_domain':'c.com'}]}]}", "{'windows_profile':[{'gmsa':[{'dns_server':'10.0.0.9','root_domain':'c.com'}]}]}", "NDP205" },
    { "gmsa removed with dns", TF, AZ, "{'windows_profile':[{'gmsa':[{'dns_server':'10.0.0.4','root_domain':'c.com'}]}]}", "{'windows_profile':[{'gmsa':[]}]}", "NDP205" },
    { "gmsa removed without dns", TF, AZ, "{'windows_profile':[{'gmsa':[{'dns_server':'','root_domain':''}]}]}", "{'windows_profile':[{'gmsa':[]}]}", "" },
    { "gmsa unchanged", TF, AZ, "{'windows_profile':[{'gmsa':[{'dns_server':'10.0.0.4','root_domain':'c.com'}]}]}", "{'windows_profile':[{'gmsa':[{'dns_server':'10.0.0.4','root_domain':'c.com'}]}]}", "" },
    /* capacity-reservation-group */
    { "crg attached (pool)", TF, AZP, "{'capacity_reservation_group_id':''}", "{'capacity_reservation_group_id':'/x/crg1'}", "NDP206" },
    { "crg attached (default pool)", TF, AZ, "{'default_node_pool':[{'name':'system','capacity_reservation_group_id':''}]}", "{'default_node_pool':[{'name':'system','capacity_reservation_group_id':'/x/crg'}]}", "NDP206" },
    { "crg changed", TF, AZP, "{'capacity_reservation_group_id':'/x/crg1'}", "{'capacity_reservation_group_id':'/x/crg2'}", "" },
    { "crg detached", TF, AZP, "{'capacity_reservation_group_id':'/x/crg1'}", "{'capacity_reservation_group_id':''}", "" },
    { "arm crg attached", ARM, AP, APROP("'count':3"), APROP("'count':3,'capacityReservationGroupID':'/x/crg'"), "NDP206" },
    { "arm crg attached in cluster", ARM, MC, POOL1("'count':3"), POOL1("'count':3,'capacityReservationGroupID':'/x/crg'"), "NDP206" },
    /* ssh-config (version-gated) */
    { "arm ssh access disabled", ARM, AP, APROP("'securityProfile':{'sshAccess':'LocalUser'}"), APROP("'securityProfile':{'sshAccess':'Disabled'}"), "NDP301" },
    { "arm ssh access unset->LocalUser", ARM, AP, APROP("'securityProfile':{}"), APROP("'securityProfile':{'sshAccess':'localuser'}"), "" },
    { "ssh key changed", TF, AZ, "{'linux_profile':[{'admin_username':'azureuser','ssh_key':[{'key_data':'ssh-rsa AAA'}]}]}", "{'linux_profile':[{'admin_username':'azureuser','ssh_key':[{'key_data':'ssh-rsa BBB'}]}]}", "NDP302" },
    { "arm ssh key changed", ARM, MC, APROP("'linuxProfile':{'ssh':{'publicKeys':[{'keyData':'ssh-rsa A'}]}}"), APROP("'linuxProfile':{'ssh':{'publicKeys':[{'keyData':'ssh-rsa B'}]}}"), "NDP302" },
    /* imds-restriction */
    { "arm imds restricted", ARM, MC, ANP("'podLinkLocalAccess':'IMDS'"), ANP("'podLinkLocalAccess':'None'"), "NDP303" },
    { "arm imds unrestricted", ARM, MC, ANP("'podLinkLocalAccess':'None'"), ANP("'podCidr':'x'"), "NDP303" },
    { "arm imds unset->IMDS", ARM, MC, ANP("'podCidr':'x'"), ANP("'podLinkLocalAccess':'IMDS'"), "" },
    /* bootstrap-profile */
    { "bootstrap Direct->Cache", TF, AZ, "{'bootstrap_profile':[{'artifact_source':'Direct','container_registry_id':''}]}", "{'bootstrap_profile':[{'artifact_source':'Cache','container_registry_id':''}]}", "NDP304" },
    { "bootstrap unset->Direct", TF, AZ, "{'bootstrap_profile':[]}", "{'bootstrap_profile':[{'artifact_source':'Direct'}]}", "" },
    { "bootstrap registry", TF, AZ, "{'bootstrap_profile':[{'container_registry_id':'/x/acr1'}]}", "{'bootstrap_profile':[{'container_registry_id':'/x/acr2'}]}", "NDP305" },
    { "arm bootstrap Cache->Direct", ARM, MC, APROP("'bootstrapProfile':{'artifactSource':'Cache'}"), APROP("'bootstrapProfile':{'artifactSource':'Direct'}"), "NDP304" },
    /* outbound-type */
    { "outbound lb->udr", TF, AZ, NP("'outbound_type':'loadBalancer'"), NP("'outbound_type':'userDefinedRouting'"), "NDP306" },
    { "outbound unset->lb", TF, AZ, NP("'outbound_type':''"), NP("'outbound_type':'loadBalancer'"), "" },
    { "arm outbound nat", ARM, MC, ANP("'outboundType':'loadBalancer'"), ANP("'outboundType':'managedNATGateway'"), "NDP306" },
    /* upgrades: recorded for the bypass rule */
    { "k8s upgrade", TF, AZ, "{'kubernetes_version':'1.36'}", "{'kubernetes_version':'1.37'}", "NDP401" },
    { "pool upgrade", TF, AZP, "{'orchestrator_version':'1.36.1'}", "{'orchestrator_version':'1.37.0'}", "NDP402" },
    { "arm node image", ARM, AP, APROP("'nodeImageVersion':'A'"), APROP("'nodeImageVersion':'B'"), "NDP403" },
    /* rotate: azurerm cycles the pool through temporary_name_for_rotation */
    { "rotate default pool vm_size", TF, AZ, "{'default_node_pool':[{'name':'system','vm_size':'Standard_D4ds_v5'}]}", "{'default_node_pool':[{'name':'system','vm_size':'Standard_D8ds_v5'}]}", "NDP501" },
    { "rotate default pool zones reordered", TF, AZ, "{'default_node_pool':[{'name':'system','zones':['1','2']}]}", "{'default_node_pool':[{'name':'system','zones':['2','1']}]}", "" },
    { "rotate default pool node_count", TF, AZ, "{'default_node_pool':[{'name':'system','node_count':3}]}", "{'default_node_pool':[{'name':'system','node_count':4}]}", "" },
    { "rotate pool kubelet_config", TF, AZP, "{'kubelet_config':[]}", "{'kubelet_config':[{'pod_max_pid':2048}]}", "NDP502" },
    { "rotate pool max_pods", TF, AZP, "{'max_pods':30}", "{'max_pods':110}", "NDP502" },
    { "rotate os_sku Ubuntu->AzureLinux", TF, AZP, "{'os_sku':'Ubuntu'}", "{'os_sku':'AzureLinux'}", "" },
    { "rotate os_sku Ubuntu->Windows2022", TF, AZP, "{'os_sku':'Ubuntu'}", "{'os_sku':'Windows2022'}", "NDP503" },
    { "rotate os_sku unset->Ubuntu2204", TF, AZ, "{'default_node_pool':[{'name':'s','os_sku':''}]}", "{'default_node_pool':[{'name':'s','os_sku':'Ubuntu2204'}]}", "" },
    /* agentPoolProfiles are matched by name: a reorder is no change */
    { "arm pools reordered", ARM, MC, "{'properties':{'agentPoolProfiles':[{'name':'a','securityProfile':{'enableVTPM':true}},{'name':'b'}]}}", "{'properties':{'agentPoolProfiles':[{'name':'b'},{'name':'a','securityProfile':{'enableVTPM':true}}]}}", "" },
    { "arm pools reordered and changed", ARM, MC, "{'properties':{'agentPoolProfiles':[{'name':'a'},{'name':'b'}]}}", "{'properties':{'agentPoolProfiles':[{'name':'b','artifactStreamingProfile':{'enabled':true}},{'name':'a'}]}}", "NDP203" },
    /* unrelated changes */
    { "tags only", TF, AZ, "{'tags':{'env':'a'}}", "{'tags':{'env':'b'}}", "" },
    { "node count only", TF, AZP, "{'node_count':3}", "{'node_count':5}", "" },
};

static const struct ndp_ruleset *ruleset;

/* The rule files as --rules DIR reads them. */
static int load_rules(void **state)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    if (ndp_rules_load_dir(&rs, NDP_RULES_DIR, &err) != 0) {
        fprintf(stderr, "cannot load rules: %s\n", err.msg);
        return -1;
    }
    ruleset = rs;
    return 0;
}

/* The same files as built into the binary (the compiled rule image). */
static int load_builtin_rules(void **state)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    if (ndp_rules_load_embedded(&rs, &err) != 0)
        return -1;
    ruleset = rs;
    return 0;
}

static int free_rules(void **state)
{
    (void)state;
    ndp_ruleset_free((struct ndp_ruleset *)(uintptr_t)ruleset);
    return 0;
}

/* Runs one case through the engine; returns the hit rule ids, ','-joined. */
static char *run_case(const struct engine_case *c)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_buf ids = NDP_BUF_INIT;
    struct ndp_change *ch;
    size_t i;

    ndp_changeset_add_input(&set, "test.json");
    ch = ndp_changeset_add(&set, 0);
    ch->address = ndp_xstrdup("r");
    ch->resource_type = ndp_xstrdup(c->type);
    ch->notation = c->notation;
    ch->kind = strstr(c->type, "pool") || strstr(c->type, "agentPools")
                   ? NDP_KIND_NODEPOOL : NDP_KIND_CLUSTER;
    ch->action = NDP_ACTION_UPDATE;
    ch->before = test_json(c->before);
    ch->after = test_json(c->after);
    ndp_engine_run(&hits, ruleset, &set);
    for (i = 0; i < hits.nr; i++)
        ndp_buf_addf(&ids, "%s%s", i ? "," : "", hits.items[i].rule->id);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
    return ndp_buf_detach(&ids);
}

static void every_transition__reimages_or_not_as_the_spec_says(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(cases); i++) {
        char *got = run_case(&cases[i]);
        if (strcmp(got, cases[i].expect) != 0) {
            print_error("case '%s': expected [%s], got [%s]\n",
                        cases[i].name, cases[i].expect, got);
            failures++;
        }
        free(got);
    }
    print_message("%zu transition cases checked\n", NDP_ARRAY_SIZE(cases));
    assert_int_equal(failures, 0);
}

/* Each category with a rule in the set has at least one positive row. */
static void every_rule__has_a_positive_case(void **state)
{
    size_t i, j, missing = 0;

    (void)state;
    for (i = 0; i < ndp_ruleset_count(ruleset); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(ruleset, i);
        bool found = false;
        if (r->class_ == NDP_CLASS_META)
            continue;
        for (j = 0; j < NDP_ARRAY_SIZE(cases) && !found; j++)
            found = strstr(cases[j].expect, r->id) != NULL;
        if (!found) {
            print_error("rule %s has no positive case\n", r->id);
            missing++;
        }
    }
    assert_int_equal(missing, 0);
}

static void unknown_after__may_reimage_only_when_a_transition_can_start(void **state)
{
    static const struct {
        const char *before, *after, *unknown, *expect;
    } rows[] = {
        { NP("'network_policy':''"), NP("'network_policy':null"), NP("'network_policy':true"), "NDP101" },
        { NP("'network_policy':'azure'"), NP("'network_policy':null"), NP("'network_policy':true"), "NDP101" },
        { "{'node_os_upgrade_channel':'None'}", "{'node_os_upgrade_channel':null}", "{'node_os_upgrade_channel':true}", "NDP103" },
        { "{'capacity_reservation_group_id':'/x/crg'}", "{}", "{'capacity_reservation_group_id':true}", "" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_changeset set = NDP_CHANGESET_INIT;
        struct ndp_hits hits = NDP_HITS_INIT;
        struct ndp_change *ch;

        ndp_changeset_add_input(&set, "t.json");
        ch = ndp_changeset_add(&set, 0);
        ch->address = ndp_xstrdup("r");
        ch->resource_type = ndp_xstrdup(i == 3 ? AZP : AZ);
        ch->notation = TF;
        ch->kind = i == 3 ? NDP_KIND_NODEPOOL : NDP_KIND_CLUSTER;
        ch->action = NDP_ACTION_UPDATE;
        ch->before = test_json(rows[i].before);
        ch->after = test_json(rows[i].after);
        ch->after_unknown = test_json(rows[i].unknown);
        ndp_engine_run(&hits, ruleset, &set);
        if (*rows[i].expect) {
            assert_int_equal(hits.nr, 1);
            assert_string_equal(hits.items[0].rule->id, rows[i].expect);
            assert_true(hits.items[0].after_unknown);
        } else {
            assert_int_equal(hits.nr, 0);
        }
        ndp_hits_release(&hits);
        ndp_changeset_release(&set);
    }
}

static void sensitive_mask__marks_the_hit(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_change *ch;

    (void)state;
    ndp_changeset_add_input(&set, "t.json");
    ch = ndp_changeset_add(&set, 0);
    ch->address = ndp_xstrdup("r");
    ch->resource_type = ndp_xstrdup(AZ);
    ch->notation = TF;
    ch->action = NDP_ACTION_UPDATE;
    ch->before = test_json("{'http_proxy_config':[{'http_proxy':'http://a'}]}");
    ch->after = test_json("{'http_proxy_config':[{'http_proxy':'http://b'}]}");
    ch->before_sensitive = test_json("{'http_proxy_config':true}");
    ch->after_sensitive = test_json("{'http_proxy_config':[{'http_proxy':true}]}");
    ndp_engine_run(&hits, ruleset, &set);
    assert_int_equal(hits.nr, 1);
    assert_true(hits.items[0].before_sensitive);
    assert_true(hits.items[0].after_sensitive);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
}

/*
 * JSON null, an absent key and "" are all unset: each gives the same hits,
 * and each hit once (a null on one side must not walk the key twice).
 */
static const struct engine_case unset_cases[] = {
    { "np null->calico", TF, AZ, NP("'network_policy':null"), NP("'network_policy':'calico'"), "NDP101" },
    { "np absent->calico", TF, AZ, NP("'network_plugin':'azure'"), NP("'network_plugin':'azure','network_policy':'calico'"), "NDP101" },
    { "np empty->calico", TF, AZ, NP("'network_policy':''"), NP("'network_policy':'calico'"), "NDP101" },
    { "np calico->null", TF, AZ, NP("'network_policy':'calico'"), NP("'network_policy':null"), "NDP101" },
    { "np calico->absent", TF, AZ, NP("'network_policy':'calico','network_plugin':'azure'"), NP("'network_plugin':'azure'"), "NDP101" },
    { "np null->null", TF, AZ, NP("'network_policy':null"), NP("'network_policy':null"), "" },
    { "np null->empty", TF, AZ, NP("'network_policy':null"), NP("'network_policy':''"), "" },
    { "arm np null->calico", ARM, MC, ANP("'networkPolicy':null"), ANP("'networkPolicy':'calico'"), "NDP101" },
    { "arm vtpm null->true", ARM, MC, POOL1("'securityProfile':{'enableVTPM':null}"), POOL1("'securityProfile':{'enableVTPM':true}"), "NDP202" },
    { "arm block null->set", ARM, MC, APROP("'httpProxyConfig':null"), APROP("'httpProxyConfig':{'trustedCa':'QQ=='}"), "NDP107" },
};

static void null_absent_and_empty__same_hits_once(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(unset_cases); i++) {
        char *got = run_case(&unset_cases[i]);
        if (strcmp(got, unset_cases[i].expect) != 0) {
            print_error("case '%s': expected [%s], got [%s]\n",
                        unset_cases[i].name, unset_cases[i].expect, got);
            failures++;
        }
        free(got);
    }
    assert_int_equal(failures, 0);
}

/* A null before and an unknown (null) after: one may-reimage hit. */
static void null_before_unknown_after__one_hit(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_change *ch;

    (void)state;
    ndp_changeset_add_input(&set, "t.json");
    ch = ndp_changeset_add(&set, 0);
    ch->address = ndp_xstrdup("r");
    ch->resource_type = ndp_xstrdup(AZ);
    ch->notation = TF;
    ch->action = NDP_ACTION_UPDATE;
    ch->before = test_json(NP("'network_policy':null"));
    ch->after = test_json(NP("'network_policy':null"));
    ch->after_unknown = test_json(NP("'network_policy':true"));
    ch->before_sensitive = test_json(NP("'network_policy':null"));
    ndp_engine_run(&hits, ruleset, &set);
    assert_int_equal(hits.nr, 1);
    assert_string_equal(hits.items[0].rule->id, "NDP101");
    assert_true(hits.items[0].after_unknown);
    assert_false(hits.items[0].before_sensitive);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
}

/*
 * Spec §11: a pool added to or removed from agentPoolProfiles is created or
 * deleted, not reimaged; only pools on both sides (by name, any case) are
 * compared.  Elements with no name on either side match by position.
 */
#define POOLS(x) "{'properties':{'agentPoolProfiles':[" x "]}}"
static const struct engine_case pool_cases[] = {
    { "pool added with vtpm", ARM, MC, POOLS("{'name':'a'}"), POOLS("{'name':'a'},{'name':'conf2','securityProfile':{'enableVTPM':true}}"), "" },
    { "pool removed with vtpm", ARM, MC, POOLS("{'name':'a'},{'name':'conf2','securityProfile':{'enableVTPM':true}}"), POOLS("{'name':'a'}"), "" },
    { "pool added first", ARM, MC, POOLS("{'name':'a'}"), POOLS("{'name':'conf2','securityProfile':{'enableSecureBoot':true}},{'name':'a'}"), "" },
    { "pool added with version", ARM, MC, POOLS("{'name':'a','orchestratorVersion':'1.37.0'}"), POOLS("{'name':'a','orchestratorVersion':'1.37.0'},{'name':'b','orchestratorVersion':'1.37.1'}"), "" },
    { "pool added beside a change", ARM, MC, POOLS("{'name':'a','securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'b','orchestratorVersion':'1.38.0','securityProfile':{'enableVTPM':true}},{'name':'a','securityProfile':{'enableVTPM':true}}"), "NDP202" },
    { "pool renamed", ARM, MC, POOLS("{'name':'a','securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'b','securityProfile':{'enableVTPM':true}}"), "" },
    { "pool name case differs", ARM, MC, POOLS("{'name':'NP1','securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'np1','securityProfile':{'enableVTPM':true}}"), "NDP202" },
    { "unnamed pools by position", ARM, MC, POOLS("null,{'securityProfile':{'enableVTPM':false}}"), POOLS("null,{'securityProfile':{'enableVTPM':true}}"), "NDP202" },
    { "unnamed pool added", ARM, MC, POOLS("null"), POOLS("null,{'securityProfile':{'enableVTPM':true}}"), "" },
    { "unnamed facing named", ARM, MC, POOLS("{'securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'a','securityProfile':{'enableVTPM':true}}"), "" },
};

static void pool_added_or_removed__not_compared(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(pool_cases); i++) {
        char *got = run_case(&pool_cases[i]);
        if (strcmp(got, pool_cases[i].expect) != 0) {
            print_error("case '%s': expected [%s], got [%s]\n",
                        pool_cases[i].name, pool_cases[i].expect, got);
            failures++;
        }
        free(got);
    }
    assert_int_equal(failures, 0);
}

/* An unnamed pool element is printed by position and names no pool. */
static void unnamed_pool__printed_by_position(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_change *ch;

    (void)state;
    ndp_changeset_add_input(&set, "t.json");
    ch = ndp_changeset_add(&set, 0);
    ch->address = ndp_xstrdup("r");
    ch->resource_type = ndp_xstrdup(MC);
    ch->notation = ARM;
    ch->action = NDP_ACTION_UPDATE;
    ch->before = test_json(POOLS("null,{'securityProfile':{'enableVTPM':false}}"));
    ch->after = test_json(POOLS("null,{'securityProfile':{'enableVTPM':true}}"));
    ndp_engine_run(&hits, ruleset, &set);
    assert_int_equal(hits.nr, 1);
    assert_string_equal(hits.items[0].path,
                        "properties.agentPoolProfiles[1].securityProfile."
                        "enableVTPM");
    assert_null(hits.items[0].pool);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_transition__reimages_or_not_as_the_spec_says),
        cmocka_unit_test(every_rule__has_a_positive_case),
        cmocka_unit_test(unknown_after__may_reimage_only_when_a_transition_can_start),
        cmocka_unit_test(sensitive_mask__marks_the_hit),
        cmocka_unit_test(null_absent_and_empty__same_hits_once),
        cmocka_unit_test(null_before_unknown_after__one_hit),
        cmocka_unit_test(pool_added_or_removed__not_compared),
        cmocka_unit_test(unnamed_pool__printed_by_position),
    };

    int failed = cmocka_run_group_tests_name("rule files", tests, load_rules,
                                             free_rules);

    return failed + cmocka_run_group_tests_name("built-in rule image", tests,
                                                load_builtin_rules,
                                                free_rules);
}
