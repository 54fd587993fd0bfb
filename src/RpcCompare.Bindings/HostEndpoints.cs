using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings;

/// <summary>What a running host publishes (<see cref="EndpointsFile"/>): each binding's address and, with TLS on, the certificate clients pin.</summary>
/// <param name="Addresses">Binding name to the address a client dials.</param>
/// <param name="CertificateThumbprint">SHA-256 thumbprint of the certificate the TCP bindings present; null when they are plaintext.</param>
public sealed record HostEndpoints(IReadOnlyDictionary<string, string> Addresses, string? CertificateThumbprint = null)
{
    /// <summary>The client TLS settings that trust this host (its certificate pinned); null when the host is plaintext.</summary>
    public ClientTlsOptions? ClientTls => CertificateThumbprint is null ? null : new ClientTlsOptions { ServerCertificateThumbprint = CertificateThumbprint };
}
