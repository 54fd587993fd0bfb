using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.IdentityModel.Claims;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// NetTcp's TLS is WCF's own (an SSL upgrade inside its framing), so the connection's middleware
/// (<see cref="ConnectionCaller"/>) never sees the client's certificate: before each operation it is
/// added to <see cref="CallerIdentity.Current"/> from WCF's security context. Applied only where
/// client certificates are asked for, so the plaintext and TLS paths pay nothing per call.
/// </summary>
internal sealed class CallerCertificateBehavior : CallContextBehavior
{
    public override object? BeforeInvoke(InstanceContext instanceContext, IClientChannel channel, Message message)
    {
        var certificate = ServiceSecurityContext.Current?.AuthorizationContext.ClaimSets.OfType<X509CertificateClaimSet>().FirstOrDefault()?.X509Certificate;
        if (CallerIdentity.Current is { } caller)
        {
            CallerIdentity.Current = caller.WithCertificate(certificate);
        }

        return null;
    }
}
