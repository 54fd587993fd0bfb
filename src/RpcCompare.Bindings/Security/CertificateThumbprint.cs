using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// A certificate's SHA-256 thumbprint as upper-case hex, the form the host logs and writes to the
/// endpoints file and clients pin (SHA-1, Windows' default thumbprint, is not used).
/// </summary>
public static class CertificateThumbprint
{
    public static string Of(X509Certificate certificate)
    {
        ArgumentNullException.ThrowIfNull(certificate);
        return certificate.GetCertHashString(HashAlgorithmName.SHA256);
    }

    /// <summary>
    /// A thumbprint as given by a person (any case, with or without ':' or spaces between bytes),
    /// in <see cref="Of"/>'s form; throws, naming <paramref name="setting"/>, when it is not 32 bytes of hex.
    /// </summary>
    public static string Normalize(string value, string setting)
    {
        ArgumentNullException.ThrowIfNull(value);
        var hex = value.Replace(":", "", StringComparison.Ordinal).Replace(" ", "", StringComparison.Ordinal).ToUpperInvariant();
        return hex.Length == 64 && hex.All(Uri.IsHexDigit)
            ? hex
            : throw new ArgumentException($"{setting} must be a SHA-256 thumbprint (64 hex digits); got '{value}'.");
    }
}
