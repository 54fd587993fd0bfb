using System.Security.Cryptography.X509Certificates;
using CoreWCF.IdentityModel.Selectors;
using CoreWCF.IdentityModel.Tokens;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// wcf-nettcp's mutual TLS: CoreWCF hands each client certificate here (its SSL stream upgrade,
/// ClientCredentialType Certificate); the host's <see cref="ClientCertificatePolicy"/> decides, and
/// a refusal is counted by who it was, as on the Kestrel bindings.
/// </summary>
internal sealed class ClientCertificateValidator(ClientCertificatePolicy policy, ConnectionIncidents incidents) : X509CertificateValidator
{
    public override void Validate(X509Certificate2 certificate)
    {
        if (!policy.Accepts(certificate, out var who))
        {
            incidents.Add(ConnectionIncident.Unauthorized, who);
            throw new SecurityTokenValidationException($"The host does not serve {who}.");
        }
    }
}
