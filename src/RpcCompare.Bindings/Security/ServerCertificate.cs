using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// The certificate every TCP binding of a host presents: the one configured (PEM or PKCS#12), or a
/// self-signed one the host keeps in its state directory (created on first start, reused while it
/// is valid for another 30 days and names every host name clients use).
/// </summary>
public sealed class ServerCertificate
{
    /// <summary>Days a self-signed certificate is valid; it is replaced 30 days before the end.</summary>
    public const int SelfSignedDays = 365;

    private static readonly TimeSpan s_renewBefore = TimeSpan.FromDays(30);

    private ServerCertificate(X509Certificate2 certificate, string source)
    {
        Certificate = certificate;
        Source = source;
        Thumbprint = CertificateThumbprint.Of(certificate);
    }

    public X509Certificate2 Certificate { get; }

    /// <summary>SHA-256, upper-case hex: what clients pin.</summary>
    public string Thumbprint { get; }

    /// <summary>Where the certificate came from, for the log: a file, or a self-signed one created or reused.</summary>
    public string Source { get; }

    /// <summary>The configured certificate, or the state directory's self-signed one for <paramref name="names"/>.</summary>
    /// <param name="options">The host's TLS settings.</param>
    /// <param name="stateDirectory">Where a self-signed certificate is kept (tls/server.crt and tls/server.key, 0600).</param>
    /// <param name="names">Host names and IP addresses the self-signed certificate must name (ignored for a configured one).</param>
    /// <param name="time">The clock; tests move it.</param>
    public static ServerCertificate Load(TlsOptions options, string stateDirectory, IReadOnlyCollection<string> names, TimeProvider? time = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        time ??= TimeProvider.System;
        return options.CertificateFile is { Length: > 0 } file
            ? new ServerCertificate(CertificateFile.Load(file, options.KeyFile, options.CertificatePassword, "Tls:CertificateFile", "Tls:KeyFile"), $"from {file}")
            : SelfSigned(Path.Combine(stateDirectory, "tls"), names, time.GetUtcNow());
    }

    private static ServerCertificate SelfSigned(string directory, IReadOnlyCollection<string> names, DateTimeOffset now)
    {
        var certificateFile = Path.Combine(directory, "server.crt");
        var keyFile = Path.Combine(directory, "server.key");
        if (File.Exists(certificateFile) && File.Exists(keyFile))
        {
            var existing = TryRead(certificateFile, keyFile);
            if (existing is not null && existing.NotAfter.ToUniversalTime() - now.UtcDateTime > s_renewBefore && Names(existing).IsSupersetOf(names))
            {
                return new ServerCertificate(existing, $"self-signed, reused from {certificateFile}");
            }

            existing?.Dispose();
        }

        if (OperatingSystem.IsWindows())
        {
            Directory.CreateDirectory(directory); // Private by the user profile's ACL.
        }
        else
        {
            Directory.CreateDirectory(directory, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=RpcCompare host", key, HashAlgorithmName.SHA256);
        var alternativeNames = new SubjectAlternativeNameBuilder();
        foreach (var name in names)
        {
            if (IPAddress.TryParse(name, out var address))
            {
                alternativeNames.AddIpAddress(address);
            }
            else
            {
                alternativeNames.AddDnsName(name);
            }
        }

        request.CertificateExtensions.Add(alternativeNames.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false)); // server authentication
        var certificate = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(SelfSignedDays));
        WritePrivate(keyFile, key.ExportPkcs8PrivateKeyPem());
        WritePrivate(certificateFile, certificate.ExportCertificatePem());
        return new ServerCertificate(certificate, $"self-signed, created at {certificateFile}");
    }

    private static X509Certificate2? TryRead(string certificateFile, string keyFile)
    {
        try
        {
            return X509Certificate2.CreateFromPemFile(certificateFile, keyFile);
        }
        catch (Exception exception) when (exception is CryptographicException or IOException or ArgumentException)
        {
            return null; // Damaged or foreign: replaced by a new one.
        }
    }

    /// <summary>The DNS names and IP addresses a certificate's subject alternative names hold.</summary>
    public static HashSet<string> Names(X509Certificate2 certificate)
    {
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var extension in certificate.Extensions.OfType<X509SubjectAlternativeNameExtension>())
        {
            names.UnionWith(extension.EnumerateDnsNames());
            names.UnionWith(extension.EnumerateIPAddresses().Select(a => a.ToString()));
        }

        return names;
    }

    // Written with 0600 from the start: never readable by others, not even for a moment.
    private static void WritePrivate(string path, string text)
    {
        var temporary = path + ".tmp";
        File.Delete(temporary); // A file left by a crash would keep its mode.
        var options = new FileStreamOptions { Mode = FileMode.Create, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        using (var stream = new FileStream(temporary, options))
        using (var writer = new StreamWriter(stream))
        {
            writer.Write(text);
        }

        File.Move(temporary, path, overwrite: true);
    }
}
