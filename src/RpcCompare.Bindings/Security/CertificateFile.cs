using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace RpcCompare.Bindings.Security;

/// <summary>A certificate with its private key from files: PEM (key in the same file or its own) or PKCS#12 (.pfx, .p12).</summary>
public static class CertificateFile
{
    /// <summary>Loads the certificate; throws <see cref="InvalidOperationException"/> naming the settings when it cannot be read or has no key.</summary>
    /// <param name="file">The certificate file.</param>
    /// <param name="keyFile">Its PEM key, when not in <paramref name="file"/>.</param>
    /// <param name="password">A PKCS#12 file's password, or an encrypted PEM key's.</param>
    /// <param name="setting">The setting <paramref name="file"/> came from, for messages.</param>
    /// <param name="keySetting">The setting <paramref name="keyFile"/> came from, for messages.</param>
    public static X509Certificate2 Load(string file, string? keyFile, string? password, string setting, string keySetting)
    {
        X509Certificate2 certificate;
        try
        {
            var extension = Path.GetExtension(file);
            certificate = extension.Equals(".pfx", StringComparison.OrdinalIgnoreCase) || extension.Equals(".p12", StringComparison.OrdinalIgnoreCase)
                ? X509CertificateLoader.LoadPkcs12FromFile(file, password)
                : password is { Length: > 0 }
                    ? X509Certificate2.CreateFromEncryptedPemFile(file, password, keyFile)
                    : X509Certificate2.CreateFromPemFile(file, keyFile);
        }
        catch (Exception exception) when (exception is CryptographicException or IOException or UnauthorizedAccessException or ArgumentException)
        {
            throw new InvalidOperationException($"{setting} '{file}'{(keyFile is null ? "" : $" with {keySetting} '{keyFile}'")} could not be read: {exception.Message}", exception);
        }

        return certificate.HasPrivateKey
            ? certificate
            : throw new InvalidOperationException($"{setting} '{file}' holds no private key; give it in the same file or as {keySetting}.");
    }
}
