using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// Which client certificates the TCP bindings serve when mutual TLS is on: those whose SHA-256
/// thumbprint is on the allow-list, and those that chain to one of the configured authorities
/// (for client authentication). Every TCP binding applies the same policy.
/// </summary>
public sealed class ClientCertificatePolicy
{
    private const string ClientAuthentication = "1.3.6.1.5.5.7.3.2";
    private readonly HashSet<string> _thumbprints;
    private readonly X509Certificate2Collection _authorities;

    private ClientCertificatePolicy(HashSet<string> thumbprints, X509Certificate2Collection authorities)
    {
        _thumbprints = thumbprints;
        _authorities = authorities;
    }

    /// <summary>What is served, for the log: "thumbprints AB12…, CD34…; certificates issued by CN=Team CA".</summary>
    public string Description => string.Join("; ",
        new[]
        {
            _thumbprints.Count > 0 ? "thumbprints " + string.Join(", ", _thumbprints.Order(StringComparer.Ordinal)) : null,
            _authorities.Count > 0 ? "certificates issued by " + string.Join(", ", _authorities.Select(a => a.Subject)) : null,
        }.OfType<string>());

    /// <summary>The policy the Tls section asks for; null when it asks for no client certificate. Throws naming the setting at fault.</summary>
    public static ClientCertificatePolicy? From(TlsOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var thumbprints = (options.ClientCertificates ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(t => CertificateThumbprint.Normalize(t, "Tls:ClientCertificates")).ToHashSet(StringComparer.Ordinal);
        var authorities = new X509Certificate2Collection();
        if (options.ClientCertificateAuthority is { Length: > 0 } file)
        {
            try
            {
                authorities.ImportFromPemFile(file);
            }
            catch (Exception exception) when (exception is CryptographicException or IOException or UnauthorizedAccessException)
            {
                throw new InvalidOperationException($"Tls:ClientCertificateAuthority '{file}' could not be read: {exception.Message}", exception);
            }

            if (authorities.Count == 0)
            {
                throw new InvalidOperationException($"Tls:ClientCertificateAuthority '{file}' holds no certificate.");
            }
        }

        return thumbprints.Count == 0 && authorities.Count == 0 ? null : new ClientCertificatePolicy(thumbprints, authorities);
    }

    /// <summary>Whether <paramref name="certificate"/> is served; <paramref name="who"/> names it for the log either way.</summary>
    public bool Accepts(X509Certificate2? certificate, out string who)
    {
        if (certificate is null)
        {
            who = "no client certificate";
            return false;
        }

        var thumbprint = CertificateThumbprint.Of(certificate);
        who = $"certificate {thumbprint} ({certificate.Subject})";
        return _thumbprints.Contains(thumbprint) || IssuedByAnAuthority(certificate);
    }

    /// <summary>
    /// Checks a TLS client: null when it may be served; else counts the refusal in
    /// <paramref name="incidents"/>, naming the certificate, and returns what to tell the client.
    /// </summary>
    public string? Refuse(X509Certificate2? certificate, ConnectionIncidents incidents)
    {
        ArgumentNullException.ThrowIfNull(incidents);
        if (Accepts(certificate, out var who))
        {
            return null;
        }

        incidents.Add(ConnectionIncident.Unauthorized, who);
        return certificate is null
            ? "This host serves only clients that present a TLS client certificate, and none was presented."
            // The allow-list itself is not told to a client the host does not serve.
            : $"This host does not serve {who}: it serves certificates on its list or issued by its authority (ask its operator).";
    }

    private bool IssuedByAnAuthority(X509Certificate2 certificate)
    {
        if (_authorities.Count == 0)
        {
            return false;
        }

        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.AddRange(_authorities);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.ApplicationPolicy.Add(new Oid(ClientAuthentication));
        return chain.Build(certificate);
    }
}
