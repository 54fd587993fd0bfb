using System.IdentityModel.Policy;
using System.ServiceModel;
using System.ServiceModel.Security;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// WCF's identity check for a pinned server certificate: the pin has already named the one
/// certificate trusted, so the DNS name WCF would also demand (it reads DNS names only, never the
/// IP addresses a certificate names, so a host dialled as 127.0.0.1 could never pass) adds nothing.
/// </summary>
internal sealed class PinnedIdentityVerifier : IdentityVerifier
{
    public override bool CheckAccess(EndpointIdentity identity, AuthorizationContext authContext) => true;

    // WCF wants some identity to check before it asks CheckAccess: the host dialled, which CheckAccess then accepts.
    public override bool TryGetIdentity(EndpointAddress reference, out EndpointIdentity identity)
    {
        ArgumentNullException.ThrowIfNull(reference);
        identity = new DnsEndpointIdentity(reference.Uri.Host);
        return true;
    }
}
