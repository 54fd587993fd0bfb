using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// How a client trusts a TLS server. Setting it turns TLS on for wcf-nettcp and fast-tcp (whose
/// net.tcp:// and tcp:// addresses cannot say so); wcf-http and grpc-tcp use TLS whenever their address is https://.
/// </summary>
public sealed class ClientTlsOptions
{
    /// <summary>
    /// The SHA-256 thumbprint the server's certificate must have (the host logs it and writes it to
    /// the endpoints file): the certificate is then trusted whoever signed it and whatever names it
    /// holds, which is how a client trusts a host's self-signed certificate. Defaults to null: the
    /// certificate must chain to a root this machine trusts and name the host dialled.
    /// </summary>
    public string? ServerCertificateThumbprint { get; set; }

    /// <summary>
    /// Mutual TLS: the certificate (with its private key) this client presents to a host that asks
    /// for one (Tls:ClientCertificates or Tls:ClientCertificateAuthority). Defaults to null: none.
    /// </summary>
    public X509Certificate2? ClientCertificate { get; set; }

    /// <summary>The client certificate for a handler's SslOptions: empty when there is none.</summary>
    public X509CertificateCollection ClientCertificates => ClientCertificate is null ? [] : [ClientCertificate];

    /// <summary>Whether the server's certificate is trusted, by <see cref="ServerCertificateThumbprint"/> or else by the system's checks.</summary>
    public bool Trusts(X509Certificate? certificate, SslPolicyErrors errors) =>
        ServerCertificateThumbprint is { } pinned
            ? certificate is not null && string.Equals(CertificateThumbprint.Of(certificate), CertificateThumbprint.Normalize(pinned, nameof(ServerCertificateThumbprint)), StringComparison.Ordinal)
            : errors == SslPolicyErrors.None;

    /// <summary>
    /// A handler's callback applying <see cref="Trusts"/>. A refused certificate throws, saying why
    /// (the thumbprint it has, or the chain errors), rather than returning false: the caller then
    /// sees that reason inside the HTTP or gRPC error instead of "rejected by the provided callback".
    /// </summary>
    public RemoteCertificateValidationCallback ValidationCallback => (_, certificate, _, errors) =>
        Trusts(certificate, errors) ? true : throw new AuthenticationException(DescribeRefusal(certificate, errors));

    /// <summary>Why a certificate was refused, for the error a caller sees.</summary>
    public string DescribeRefusal(X509Certificate? certificate, SslPolicyErrors errors) =>
        certificate is null ? "the server presented no certificate"
        : ServerCertificateThumbprint is { } pinned ? $"the server's certificate has SHA-256 thumbprint {CertificateThumbprint.Of(certificate)}, not the pinned {pinned}"
        : $"the server's certificate is not trusted here ({errors}); pin its thumbprint (the host logs it and writes it to the endpoints file) or trust its issuer";
}
