using System.Security.Cryptography.X509Certificates;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Perf.Hosting.Security;

/// <summary>
/// How the measured TCP bindings are secured, for a column of the runner or a pass of the load
/// command: plaintext, TLS, or mutual TLS. The certificates are the measuring tools' own (kept in
/// <see cref="BenchState"/> and reused), given to the host as files and pinned by the client, so a
/// measurement shows the encryption's and the handshake's share, not a certificate chain check.
/// </summary>
public sealed class BenchSecurity
{
    // Made (or reused) only when a run measures TLS: a run that never does writes nothing.
    private static readonly Lazy<ServerCertificate> s_serverCertificate = new(static () =>
        ServerCertificate.Load(new TlsOptions { Enabled = true }, BenchState.Directory, ["localhost", "127.0.0.1", "::1"]));

    private static readonly Lazy<X509Certificate2> s_clientCertificate = new(BenchClientCertificate.LoadOrCreate);

    private BenchSecurity(string name, string description, bool tls, bool clientCertificates)
    {
        Name = name;
        Description = description;
        UsesTls = tls;
        UsesClientCertificates = clientCertificates;
    }

    /// <summary>No TLS: what every binding does by default on loopback.</summary>
    public static BenchSecurity Plaintext { get; } = new("plaintext", "plaintext, as every binding runs by default on loopback", false, false);

    /// <summary>TLS on wcf-nettcp (SecurityMode.Transport), wcf-http (HTTPS), grpc-tcp (HTTP/2 over TLS) and fast-tcp (its frames in SslStream).</summary>
    public static BenchSecurity Tls { get; } = new("tls",
        "TLS on (wcf-nettcp SecurityMode.Transport, wcf-http HTTPS, grpc-tcp HTTP/2 over TLS, fast-tcp's frames in SslStream with no spin and every " +
        "Task call's reply read by the connection's reader thread) instead of plaintext, with a self-signed ECDSA P-256 certificate " +
        "the client pins; the TLS version is the highest both sides' OpenSSL offer", true, false);

    /// <summary>As <see cref="Tls"/>, and the client presents a certificate of the tools' own authority, which the host checks on every connection.</summary>
    public static BenchSecurity MutualTls { get; } = new("mtls",
        "mutual TLS: as tls, and the client presents a certificate (ECDSA P-256, client authentication) that the host checks against the measuring tools' own " +
        "authority (Tls:ClientCertificateAuthority) on every connection", true, true);

    /// <summary>Every mode, plaintext first.</summary>
    public static IReadOnlyList<BenchSecurity> All { get; } = [Plaintext, Tls, MutualTls];

    /// <summary>The bindings TLS applies to (the Unix-socket ones check the peer's user instead).</summary>
    public static IReadOnlySet<string> TcpBindings { get; } = new HashSet<string> { BindingNames.WcfNetTcp, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.FastTcp };

    /// <summary>"plaintext", "tls" or "mtls": the option value and the suffix of a labelled binding (grpc-tcp/tls).</summary>
    public string Name { get; }

    /// <summary>What the mode is, for a report's list of variants.</summary>
    public string Description { get; }

    public bool UsesTls { get; }

    public bool UsesClientCertificates { get; }

    /// <summary>The host's settings for this mode (environment variables); empty for plaintext.</summary>
    public IReadOnlyDictionary<string, string> HostEnvironment
    {
        get
        {
            var environment = new Dictionary<string, string>();
            if (UsesTls)
            {
                environment["Tls__CertificateFile"] = Path.Combine(BenchState.Directory, "tls", "server.crt");
                environment["Tls__KeyFile"] = Path.Combine(BenchState.Directory, "tls", "server.key");
            }

            if (UsesClientCertificates)
            {
                environment["Tls__ClientCertificateAuthority"] = BenchClientCertificate.AuthorityFile;
            }

            return environment;
        }
    }

    /// <summary>
    /// Makes (or reuses) the certificates this mode needs, before the host that reads them starts;
    /// returns what a client uses to connect (null for plaintext).
    /// </summary>
    public ClientTlsOptions? PrepareClient() => UsesTls
        ? new ClientTlsOptions { ServerCertificateThumbprint = s_serverCertificate.Value.Thumbprint, ClientCertificate = UsesClientCertificates ? s_clientCertificate.Value : null }
        : null;

    /// <summary>
    /// The modes a comma-separated list names ("plaintext", "tls", "mtls", or "all"), in the order of
    /// <see cref="All"/>; throws <see cref="ArgumentException"/> naming <paramref name="option"/> for anything else.
    /// </summary>
    public static IReadOnlyList<BenchSecurity> Parse(string? list, string option)
    {
        var names = list?.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) ?? [];
        if (names.Length == 0)
        {
            return [Plaintext];
        }

        if (names.Any(n => n.Equals("all", StringComparison.OrdinalIgnoreCase)))
        {
            return All;
        }

        if (names.FirstOrDefault(n => !All.Any(m => m.Name.Equals(n, StringComparison.OrdinalIgnoreCase))) is { } unknown)
        {
            throw new ArgumentException($"{option} takes plaintext, tls, mtls or all (comma-separated); got '{unknown}'.");
        }

        return [.. All.Where(m => names.Contains(m.Name, StringComparer.OrdinalIgnoreCase))];
    }

    /// <summary>A binding's label in this mode: the binding itself in plaintext, else "grpc-tcp/tls".</summary>
    public string Label(string binding) => this == Plaintext ? binding : $"{binding}/{Name}";

    public override string ToString() => Name;
}
