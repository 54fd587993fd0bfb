using System.Globalization;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Fast;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Grpc;
using RpcCompare.Bindings.Grpc.Client;
using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.Bindings.Grpc.Uds;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Bindings.Wcf.NetTcp;
using RpcCompare.Bindings.Wcf.Uds;
using RpcCompare.Bindings.Security;
using RpcCompare.Client;
using RpcCompare.Perf.Hosting.Security;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Hosting;

/// <summary>
/// A binding with one knob set otherwise than the product sets it, measured as an extra column
/// "&lt;binding&gt;/&lt;suffix&gt;" beside the binding's own. A server-side knob runs its bindings in a
/// second host started with <see cref="HostEnvironment"/>; a client-side knob calls through a
/// client factory of its own (a knob on both sides has both).
/// </summary>
/// <param name="Suffix">The label suffix, e.g. "inline-io".</param>
/// <param name="Description">What differs from the product's configuration, in words, for the report.</param>
/// <param name="HostEnvironment">The second host's extra environment; empty for a client-side knob.</param>
/// <param name="CreateClientFactory">The client-side knob's factory, given the main host's TLS trust (for a knob that calls it); null for a server-side knob.</param>
/// <param name="Prepare">Run once before the variant's host starts (the TLS variant makes its certificate); null when nothing is needed.</param>
internal sealed record BindingVariant(string Suffix, string Description, IReadOnlyDictionary<string, string> HostEnvironment, Func<ClientTlsOptions?, RpcClientFactory>? CreateClientFactory = null,
    Action? Prepare = null)
{
    public const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>More streams than a push agent holds subscribers (<c>PushSettings.SubscribersPerAgent</c>).</summary>
    public const int RaisedStreamsPerConnection = 20_000;

    /// <summary>A <see cref="HostEnvironment"/> value that <see cref="EnvironmentForHost"/> replaces with a free loopback port, chosen as each host starts.</summary>
    public const string FreePort = "{free-port}";

    public bool NeedsHost => HostEnvironment.Count > 0;

    /// <summary>
    /// The environment of one host start: <see cref="HostEnvironment"/> with each <see cref="FreePort"/> a port free now,
    /// so runs in one process (the tests') or one after another never ask two hosts for the same port.
    /// </summary>
    public IReadOnlyDictionary<string, string> EnvironmentForHost() =>
        HostEnvironment.ToDictionary(e => e.Key, e => e.Value == FreePort ? FreeLoopbackPort().ToString(CultureInfo.InvariantCulture) : e.Value);

    public string Label(string binding) => $"{binding}/{Suffix}";

    /// <summary>The runtime's socket completions run inline on the epoll thread in the host.</summary>
    public static readonly BindingVariant InlineCompletions = new(
        "inline-io",
        $"with {InlineCompletionsVariable}=1 in the host: socket completions run inline on the epoll thread, so the reply is produced on the I/O thread " +
        "instead of a thread-pool worker (the runtime's default hands them to the pool)",
        new Dictionary<string, string> { [InlineCompletionsVariable] = "1" });

    /// <summary>CoreWCF's own defaults: an instance per session, taking one call at a time.</summary>
    public static readonly BindingVariant WcfPerSession = WcfInstancing(
        "per-session",
        "InstanceContextMode.PerSession + ConcurrencyMode.Single (CoreWCF's defaults) instead of Single + Multiple: each session's calls are serialized " +
        "(BasicHttp has no session, so each call gets its own instance context)",
        "PerSession", "Single");

    /// <summary>One instance taking one call at a time: what marking the DI singleton Single without ConcurrencyMode gives.</summary>
    public static readonly BindingVariant WcfSerialized = WcfInstancing(
        "serialized",
        "InstanceContextMode.Single + ConcurrencyMode.Single instead of Multiple (what setting only InstanceContextMode to use the DI instance gives): " +
        "every call of the host is serialized",
        "Single", "Single");

    /// <summary>grpc-dotnet's channel held to one HTTP/2 connection, SocketsHttpHandler's default.</summary>
    public static readonly BindingVariant GrpcOneConnection = new(
        "one-connection",
        "client SocketsHttpHandler.EnableMultipleHttp2Connections = false (its default) instead of true: a channel keeps one HTTP/2 connection, " +
        "so calls past the server's 100 concurrent streams wait for a free stream",
        new Dictionary<string, string>(),
        static tls =>
        {
            var options = new GrpcClientOptions { EnableMultipleHttp2Connections = false, ConnectTimeout = RunnerClients.ConnectTimeout, Tls = tls };
            return new RpcClientFactory([new GrpcTcpClientProvider(options), new GrpcUdsClientProvider(options)]);
        });

    /// <summary>
    /// What a comparison engine's host serves: the buffered services the ops and shapes suites
    /// call. Neither peer library carries a Stream, so the streamed service stays with the product's host.
    /// </summary>
    private static readonly KeyValuePair<string, string> ComparedServices = new("RpcCompare__Services", "FileService,CallShapeService,PayloadService");

    /// <summary>protobuf-net.Grpc's code-first binder and proxies instead of the product's contract-model methods, on both sides.</summary>
    public static readonly BindingVariant GrpcProtobufNet = new(
        "protobuf-net.Grpc",
        "protobuf-net.Grpc's code-first binder on the server and its generated proxies in the client (Engine = ProtobufNetGrpc) instead of the product's " +
        "methods built from the contract model: the same messages on the wire, so the column measures what each path costs",
        new Dictionary<string, string>
        {
            [$"{GrpcTcpBindingOptions.SectionName}__Engine"] = nameof(GrpcEngine.ProtobufNetGrpc),
            [$"{GrpcUdsBindingOptions.SectionName}__Engine"] = nameof(GrpcEngine.ProtobufNetGrpc),
            [ComparedServices.Key] = ComparedServices.Value,
        },
        static tls =>
        {
            var options = new GrpcClientOptions { Engine = GrpcEngine.ProtobufNetGrpc, ConnectTimeout = RunnerClients.ConnectTimeout, Tls = tls };
            return new RpcClientFactory([new GrpcTcpClientProvider(options), new GrpcUdsClientProvider(options)]);
        });

    /// <summary>ServiceModel.Grpc (protobuf marshaller) on both sides: the established library for WCF contracts over gRPC.</summary>
    public static readonly BindingVariant GrpcServiceModel = new(
        "ServiceModel.Grpc",
        "ServiceModel.Grpc 1.22.1 with its protobuf marshaller on the server (AddServiceModelGrpc) and its ClientFactory proxies in the client (Engine = ServiceModelGrpc) " +
        "instead of the product's methods built from the contract model; its own wire (every parameter list in a message of its own)",
        new Dictionary<string, string> { [$"{GrpcTcpBindingOptions.SectionName}__Engine"] = nameof(GrpcEngine.ServiceModelGrpc), [ComparedServices.Key] = ComparedServices.Value },
        static tls => new RpcClientFactory([new GrpcTcpClientProvider(new GrpcClientOptions { Engine = GrpcEngine.ServiceModelGrpc, ConnectTimeout = RunnerClients.ConnectTimeout, Tls = tls })]));

    /// <summary>Kestrel's concurrent streams per HTTP/2 connection raised from 100, for subscriptions multiplexed on one connection.</summary>
    public static readonly BindingVariant GrpcStreamsRaised = new(
        "streams-raised",
        $"Kestrel Limits.Http2.MaxStreamsPerConnection = {RaisedStreamsPerConnection:#,0} in the host instead of 100 (its default): one HTTP/2 connection " +
        "may carry that many concurrent calls, such as long-lived subscription streams",
        new Dictionary<string, string>
        {
            [$"{GrpcTcpBindingOptions.SectionName}__MaxStreamsPerConnection"] = RaisedStreamsPerConnection.ToString(CultureInfo.InvariantCulture),
            [$"{GrpcUdsBindingOptions.SectionName}__MaxStreamsPerConnection"] = RaisedStreamsPerConnection.ToString(CultureInfo.InvariantCulture),
        });

    /// <summary>
    /// The TCP bindings with TLS on, on both sides (<see cref="BenchSecurity.Tls"/>): the measuring
    /// tools' own self-signed certificate, given to the host as files and pinned by the client.
    /// </summary>
    public static readonly BindingVariant Tls = Secured(BenchSecurity.Tls);

    /// <summary>
    /// The TCP bindings with mutual TLS (<see cref="BenchSecurity.MutualTls"/>): as <see cref="Tls"/>,
    /// and the host serves client certificates of the tools' own authority, which the client presents.
    /// </summary>
    public static readonly BindingVariant MutualTls = Secured(BenchSecurity.MutualTls);

    /// <summary>The TCP bindings, which the TLS variants apply to.</summary>
    public static IReadOnlySet<string> TcpBindings => BenchSecurity.TcpBindings;

    // PrepareClient makes the certificates before the host that reads them starts; the factory reuses them.
    private static BindingVariant Secured(BenchSecurity security) =>
        new(security.Name, security.Description, security.HostEnvironment, _ => RunnerClients.CreateFactory(security.PrepareClient()), () => security.PrepareClient());

    private static BindingVariant WcfInstancing(string suffix, string description, string instanceContextMode, string concurrencyMode)
    {
        var environment = new Dictionary<string, string>();
        foreach (var section in new[] { WcfNetTcpBindingOptions.SectionName, WcfUdsBindingOptions.SectionName, WcfHttpBindingOptions.SectionName })
        {
            environment[$"{section}__InstanceContextMode"] = instanceContextMode;
            environment[$"{section}__ConcurrencyMode"] = concurrencyMode;
        }

        return new(suffix, description, environment);
    }

    /// <summary>fast-uds's low-latency mode: both sides poll their socket up to <see cref="LowLatencySpin"/> before they block.</summary>
    public static readonly BindingVariant FastLowLatency = FastSpinning(
        "spin",
        $"FastUds:SpinWait and FastClientOptions.SpinWait = {LowLatencySpin.TotalMicroseconds:#,0} µs instead of {FastSpin.Default.TotalMicroseconds:0} µs: the low-latency mode, " +
        "each side polls its socket that long before it blocks (half the cores spin at most), a busy core per waiting side",
        LowLatencySpin);

    /// <summary>fast-uds blocking at once on both sides: what the default spin is worth.</summary>
    public static readonly BindingVariant FastNoSpin = FastSpinning(
        "no-spin",
        $"FastUds:SpinWait and FastClientOptions.SpinWait = 0 instead of {FastSpin.Default.TotalMicroseconds:0} µs: each side blocks in its receive at once, " +
        "and a wake-up from the other process is paid per message",
        TimeSpan.Zero);

    /// <summary>fast-uds's Task methods run as its synchronous ones do: on the caller's thread, a pooled connection each.</summary>
    public static readonly BindingVariant FastCallerThread = new(
        "caller-thread",
        "client FastClientOptions.TaskCalls = OnCallerThread instead of Multiplexed: the contract's Task methods (what the runner calls) block the caller's " +
        "thread on a pooled connection of their own and return a completed task, as the synchronous methods do; no reader thread, no thread-pool hop per reply",
        new Dictionary<string, string>(),
        _ => new RpcClientFactory([new FastClientProvider(new FastClientOptions { TaskCalls = FastTaskCalls.OnCallerThread })]));

    /// <summary>fast-uds without its generated code: what RpcCompare.Fast.Generator's proxy and server calls are worth.</summary>
    public static readonly BindingVariant FastReflection = new(
        "reflection",
        $"{FastUdsBindingOptions.SectionName}:{nameof(FastBindingOptions.GeneratedCode)} and FastClientOptions.{nameof(FastClientOptions.GeneratedCode)} = false: the reflection path " +
        "(a DispatchProxy taking the arguments as an object[], compiled expressions on both sides), as for a contract no [FastContracts] lists, " +
        "instead of the proxy and server calls RpcCompare.Fast.Generator wrote",
        new Dictionary<string, string> { [$"{FastUdsBindingOptions.SectionName}__{nameof(FastBindingOptions.GeneratedCode)}"] = "false" },
        _ => new RpcClientFactory([new FastClientProvider(new FastClientOptions { GeneratedCode = false })]));

    /// <summary>
    /// The host's telemetry on (--telemetry, --metrics-port): every call's server span recorded by the OpenTelemetry
    /// SDK and its duration aggregated for a Prometheus scrape endpoint on a free loopback port. No span exporter,
    /// so the column is what recording costs, not what shipping spans to a collector costs.
    /// </summary>
    public static readonly BindingVariant Telemetry = new(
        "telemetry",
        "the host with Telemetry:Enabled and Telemetry:PrometheusPort: the OpenTelemetry SDK records a server span per call (always sampled, no exporter) " +
        "and aggregates the rpc.server.call.duration histogram for a Prometheus endpoint nobody scrapes during the run, instead of nothing listening",
        new Dictionary<string, string>
        {
            ["Telemetry__Enabled"] = "true",
            ["Telemetry__PrometheusPort"] = FreePort,
        });

    /// <summary>One binding of each family, which the telemetry variant applies to.</summary>
    public static readonly IReadOnlySet<string> TelemetryBindings = new HashSet<string> { BindingNames.WcfNetTcp, BindingNames.GrpcTcp, BindingNames.FastUds, BindingNames.Pipes };

    /// <summary>The low-latency mode's spin: far longer than a small round trip, far shorter than a second.</summary>
    public static TimeSpan LowLatencySpin => TimeSpan.FromMilliseconds(1);

    /// <summary>fast-uds, which its spin variants apply to.</summary>
    public static readonly IReadOnlySet<string> FastBindings = new HashSet<string> { BindingNames.FastUds };

    private static BindingVariant FastSpinning(string suffix, string description, TimeSpan spin) => new(
        suffix,
        description,
        new Dictionary<string, string> { [$"{FastUdsBindingOptions.SectionName}__{nameof(FastUdsBindingOptions.SpinWait)}"] = spin.ToString("c", CultureInfo.InvariantCulture) },
        _ => new RpcClientFactory([new FastClientProvider(new FastClientOptions { SpinWait = spin })]));

    /// <summary>The WCF bindings, which the instancing variants apply to.</summary>
    public static readonly IReadOnlySet<string> WcfBindings = new HashSet<string> { BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp };

    /// <summary>The gRPC bindings, which the connection and stream-limit variants apply to.</summary>
    public static readonly IReadOnlySet<string> GrpcBindings = new HashSet<string> { BindingNames.GrpcTcp, BindingNames.GrpcUds };

    private static int FreeLoopbackPort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }
}
