namespace RpcCompare.Host;

/// <summary>The host's switches: short names for the configuration keys people set most.</summary>
internal static class HostCommandLine
{
    public static readonly Dictionary<string, string> SwitchMappings = new(StringComparer.OrdinalIgnoreCase)
    {
        ["--bindings"] = "RpcCompare:Bindings",
        ["--services"] = "RpcCompare:Services",
        ["--contracts"] = "RpcCompare:Contracts",
        ["--endpoints-file"] = "RpcCompare:EndpointsFile",
        ["--socket-dir"] = "RpcCompare:SocketDirectory",
        ["--data-root"] = "DataRoot:Path",
        ["--pipe-path"] = "Pipes:Path",
        ["--max-message-size"] = "RpcCompare:MaxMessageSize",
        ["--max-connections"] = "RpcCompare:MaxConnectionsPerBinding",
        ["--listen-address"] = "RpcCompare:ListenAddress",
        ["--advertised-host"] = "RpcCompare:AdvertisedHost",
        ["--state-dir"] = "RpcCompare:StateDirectory",
        ["--tls"] = "Tls:Enabled",
        ["--tls-certificate"] = "Tls:CertificateFile",
        ["--tls-key"] = "Tls:KeyFile",
        ["--allow-insecure"] = "Tls:AllowInsecure",
        ["--tls-client-thumbprints"] = "Tls:ClientCertificates",
        ["--tls-client-ca"] = "Tls:ClientCertificateAuthority",
        ["--allowed-users"] = "RpcCompare:AllowedUsers",
        ["--telemetry"] = "Telemetry:Enabled",
        ["--otlp-endpoint"] = "Telemetry:OtlpEndpoint",
        ["--otlp-protocol"] = "Telemetry:OtlpProtocol",
        ["--metrics-port"] = "Telemetry:PrometheusPort",
        ["--push-redis"] = "Push:Redis:Configuration",
        ["--push-nats"] = "Push:Nats:Url",
    };

    /// <summary>Switches that take no value: present means true.</summary>
    private static readonly HashSet<string> s_flags = new(StringComparer.OrdinalIgnoreCase) { "--tls", "--allow-insecure", "--telemetry" };

    public static string Usage => $$"""
        RpcCompare host: serves the same service on every binding of this build at once.

        Usage: dotnet run --project hosts/RpcCompare.Host -c Release -- [options]

        Options:
          --bindings LIST          Comma-separated bindings to serve, or "all" (default).
                                   In this build: {{string.Join(", ", HostBindings.Offered)}}.
          --services LIST          Comma-separated services to serve, "all" (default) or "none":
                                   {{string.Join(", ", Service.ProductServices.All.Keys)}}.
          --contracts PATH         Also serve a team's service assembly: each public [ServiceContract]
                                   interface in it, with the one public class in it implementing it
                                   (docs/your-contracts.md).
          --endpoints-file PATH    Write a JSON object {"binding": "address", ...} here once every listener
                                   is ready; deleted on shutdown.
          --socket-dir DIR         Directory for socket files (default: a new 0700 temp dir,
                                   removed on shutdown).
          --data-root DIR          Directory file operations are confined to (default: a new
                                   temp dir with a 1 MiB data.bin and a 100-entry files/,
                                   removed on shutdown).
          --pipe-path PATH         Socket path of the pipes binding (default: SOCKET-DIR/pipes.sock).
          --max-message-size N     Largest message in bytes on every binding (default 16777216).
          --max-connections N      Connection limit of each binding (default: the open-file limit
                                   less a tenth, shared by the bindings served). Per binding:
                                   --WcfNetTcp:MaxConnections N, and HandshakeTimeout, IdleTimeout.
          --listen-address IP      Address the TCP bindings listen on (default 127.0.0.1).
                                   Ports: --WcfNetTcp:Port, --WcfHttp:Port, --GrpcTcp:Port,
                                   --FastTcp:Port (default 0: a free port, written to the
                                   endpoints file).
          --advertised-host NAME   Host name the endpoints file gives for the TCP bindings
                                   (default: the listen address; 127.0.0.1 for 0.0.0.0).
          --tls                    TLS on every TCP binding (wcf-nettcp, wcf-http as HTTPS, grpc-tcp
                                   and fast-tcp over TLS). The
                                   certificate: --tls-certificate, or else a self-signed one kept
                                   in the state directory; its SHA-256 thumbprint is logged and
                                   written to the endpoints file.
          --tls-certificate PATH   Server certificate, PEM (key in it or --tls-key) or .pfx
                                   (password: --Tls:CertificatePassword). Implies --tls.
          --tls-key PATH           PEM private key of --tls-certificate.
          --tls-client-thumbprints LIST
                                   Mutual TLS: serve only clients presenting a certificate with
                                   one of these SHA-256 thumbprints (comma-separated). Implies --tls.
          --tls-client-ca PATH     Mutual TLS: serve clients whose certificate chains to a CA in
                                   this PEM file (with or instead of the thumbprints). Implies --tls.
          --allow-insecure         Let a TCP binding listen beyond loopback without TLS (refused
                                   otherwise).
          --allowed-users LIST     User ids the Unix-socket bindings serve (SO_PEERCRED), comma-
                                   separated, or "any" (default: the host's own user and root).
          --state-dir DIR          Where the host keeps what outlives a run, such as its
                                   self-signed certificate (default: $XDG_STATE_HOME/rpccompare,
                                   else ~/.local/state/rpccompare).
          --telemetry              Record a server span and a duration per call on every binding
                                   (OpenTelemetry; off by default: the benchmark path pays nothing).
                                   Implied by the two options below.
          --otlp-endpoint URL      Export spans and metrics over OTLP to this collector (default:
                                   OTEL_EXPORTER_OTLP_ENDPOINT, else none); --otlp-protocol grpc
                                   (default) or http/protobuf.
          --metrics-port PORT      Serve the metrics for Prometheus at
                                   http://LISTEN-ADDRESS:PORT/metrics (default: none).
          --push-redis CONFIG      Share push topics with every host on this Redis (e.g.
                                   127.0.0.1:6379): a publication on any of them reaches the
                                   subscribers of all, numbered per topic by Redis, which keeps
                                   the last --Push:Redis:MaxLength (10000) of each topic.
          --push-nats URL          The same through a NATS server with JetStream (e.g.
                                   nats://127.0.0.1:4222): a stream per topic, keeping the last
                                   --Push:Nats:MaxMessages (10000). One broker or the other.
          --Section:Key VALUE      Any other configuration key, as in appsettings.json.
          -h, --help               Show this help.

        Every setting can also come from appsettings.json or the environment
        (e.g. RpcCompare__Bindings=pipes). SIGTERM or Ctrl+C stops the host cleanly.
        """;

    /// <summary>The arguments with each value-less flag (--tls) given its value (--tls=true), as the configuration reader expects.</summary>
    public static string[] ExpandFlags(IEnumerable<string> args) =>
        [.. args.Select(a => s_flags.Contains(a) ? a + "=true" : a)];

    public static bool WantsHelp(IEnumerable<string> args) =>
        args.Any(a => a is "-h" or "--help" or "-?" or "/?");

    /// <summary>Returns the first switch that is neither known nor a configuration key, so typos fail loudly.</summary>
    public static string? FindUnknownSwitch(IReadOnlyList<string> args)
    {
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i];
            if (!arg.StartsWith('-'))
            {
                continue;
            }

            var name = arg.Split('=', 2)[0];
            if (!SwitchMappings.ContainsKey(name) && !name.Contains(':', StringComparison.Ordinal))
            {
                return name;
            }

            if (!arg.Contains('=', StringComparison.Ordinal) && !s_flags.Contains(name))
            {
                i++; // Skip the switch's value.
            }
        }

        return null;
    }
}
