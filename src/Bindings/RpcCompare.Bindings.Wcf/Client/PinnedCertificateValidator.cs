using System.IdentityModel.Selectors;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>WCF's hook for a server certificate check: the certificate must have the pinned thumbprint.</summary>
internal sealed class PinnedCertificateValidator : X509CertificateValidator
{
    private readonly ClientTlsOptions _tls;

    public PinnedCertificateValidator(ClientTlsOptions tls)
    {
        _tls = tls;
    }

    public override void Validate(X509Certificate2 certificate)
    {
        // The pin decides alone: the chain and name errors a self-signed certificate has do not count.
        if (!_tls.Trusts(certificate, SslPolicyErrors.None))
        {
            throw new System.IdentityModel.Tokens.SecurityTokenValidationException(_tls.DescribeRefusal(certificate, SslPolicyErrors.None));
        }
    }
}
