using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace RpcCompare.Perf.Hosting.Security;

/// <summary>
/// The measuring tools' client certificate for mutual TLS: issued for client authentication by an
/// authority of their own, both kept in their state directory (0700) and reused while valid for
/// another 30 days. The measured host serves certificates of that authority
/// (Tls:ClientCertificateAuthority), so its path is known before the certificate is made.
/// </summary>
public static class BenchClientCertificate
{
    private static string Directory => Path.Combine(BenchState.Directory, "tls-client");

    /// <summary>The authority's certificate (PEM), which the measured host trusts for client certificates.</summary>
    public static string AuthorityFile => Path.Combine(Directory, "ca.crt");

    private static string CertificateFile => Path.Combine(Directory, "client.crt");

    private static string KeyFile => Path.Combine(Directory, "client.key");

    /// <summary>The client certificate with its key, made (with its authority) when missing or near its end.</summary>
    public static X509Certificate2 LoadOrCreate()
    {
        if (File.Exists(AuthorityFile) && File.Exists(CertificateFile) && File.Exists(KeyFile))
        {
            try
            {
                var existing = RpcCompare.Bindings.Security.CertificateFile.Load(CertificateFile, KeyFile, null, "the measuring tools' client certificate", "its key");
                if (existing.NotAfter.ToUniversalTime() > DateTime.UtcNow.AddDays(30))
                {
                    return existing;
                }
            }
            catch (InvalidOperationException)
            {
                // Damaged: made again below.
            }
        }

        var now = DateTimeOffset.UtcNow;
        using var authorityKey = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var authorityRequest = new CertificateRequest("CN=RpcCompare runner CA", authorityKey, HashAlgorithmName.SHA256);
        authorityRequest.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        authorityRequest.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign, true));
        using var authority = authorityRequest.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(366));

        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=RpcCompare runner", key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], false)); // client authentication
        using var issued = request.Create(authority, now.AddMinutes(-5), now.AddDays(365), RandomNumberGenerator.GetBytes(8));

        // The directory is the user's alone (0700), so the key written in it is too.
        if (OperatingSystem.IsWindows())
        {
            System.IO.Directory.CreateDirectory(Directory);
        }
        else
        {
            System.IO.Directory.CreateDirectory(Directory, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        File.WriteAllText(KeyFile, key.ExportPkcs8PrivateKeyPem());
        File.WriteAllText(CertificateFile, issued.ExportCertificatePem());
        File.WriteAllText(AuthorityFile, authority.ExportCertificatePem());
        return issued.CopyWithPrivateKey(key);
    }
}
