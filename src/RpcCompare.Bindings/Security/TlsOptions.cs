namespace RpcCompare.Bindings.Security;

/// <summary>
/// The host's TLS settings (section "Tls"): one server certificate for every TCP binding
/// (wcf-nettcp, wcf-http, grpc-tcp, fast-tcp). Unix-socket bindings are not encrypted: they never leave the machine.
/// </summary>
public sealed class TlsOptions
{
    public const string SectionName = "Tls";

    /// <summary>
    /// Whether the TCP bindings speak TLS. Defaults to false: the comparison measures the
    /// frameworks on loopback. A host listening on any other address must turn it on or say
    /// <see cref="AllowInsecure"/>.
    /// </summary>
    public bool Enabled { get; set; }

    /// <summary>
    /// The server certificate: a PEM file (with <see cref="KeyFile"/>, or with its key in the same
    /// file) or a PKCS#12 file (.pfx/.p12, with <see cref="CertificatePassword"/> if it has one).
    /// Defaults to null: a self-signed certificate the host creates in its state directory on first
    /// start and reuses after (its SHA-256 thumbprint is logged and written to the endpoints file,
    /// so clients can pin it).
    /// </summary>
    public string? CertificateFile { get; set; }

    /// <summary>The PEM private key of <see cref="CertificateFile"/>, when it is not in that file.</summary>
    public string? KeyFile { get; set; }

    /// <summary>Password of a PKCS#12 <see cref="CertificateFile"/>, or of an encrypted PEM key.</summary>
    public string? CertificatePassword { get; set; }

    /// <summary>
    /// Mutual TLS: SHA-256 thumbprints of the client certificates served, comma-separated. With this
    /// or <see cref="ClientCertificateAuthority"/> set, every TCP binding asks each client for a
    /// certificate and closes a connection without an accepted one. Defaults to null: no client certificate asked.
    /// </summary>
    public string? ClientCertificates { get; set; }

    /// <summary>
    /// Mutual TLS: a PEM file of the certificate authorities whose client certificates are served
    /// (chain built to them alone, for client authentication, revocation not checked). Defaults to null.
    /// </summary>
    public string? ClientCertificateAuthority { get; set; }

    /// <summary>
    /// Lets a TCP binding listen on an address other than loopback without TLS. Defaults to false:
    /// the host refuses to start rather than serve anyone who can reach the port in plaintext.
    /// </summary>
    public bool AllowInsecure { get; set; }
}
