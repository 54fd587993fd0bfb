using RpcCompare.Bindings;
using RpcCompare.Bindings.Fast;

namespace RpcCompare.Runner.Hosting;

/// <summary>How each binding is configured, in words, for the reports.</summary>
internal static class BindingConfigurations
{
    private const string CoreWcfService =
        "CoreWCF 1.9.1 service: InstanceContextMode.Single + ConcurrencyMode.Multiple (the host's instance from DI), typed FaultException<RpcFault> for refusals; " +
        "WCF client System.ServiceModel 10.0.0, ChannelFactory<T> per contract and address, one channel (connection) per client opened once; " +
        "max message 16 MiB both sides (MaxReceivedMessageSize, MaxBufferSize, reader quotas)";

    private const string GrpcService =
        "gRPC for .NET 2.80.0 + protobuf-net.Grpc 1.3.14 code-first (protobuf-net 3.2.56 serialization), Kestrel on HTTP/2 only (h2c), no response compression, " +
        "max message 16 MiB both sides; client GrpcChannel per address shared by all its proxies, SocketsHttpHandler with EnableMultipleHttp2Connections";

    public static string Describe(string binding) => binding switch
    {
        BindingNames.WcfNetTcp =>
            "CoreWCF NetTcpBinding on Kestrel, 127.0.0.1; binary message encoding, SecurityMode.None, buffered; client ConnectionBufferSize 64 KiB " +
            "(8 KiB default stalls replies over ~1 MB on Linux loopback). " + CoreWcfService,
        BindingNames.WcfUds =>
            "CoreWCF UnixDomainSocketBinding (its own Kestrel, one socket per contract); binary message encoding, UnixDomainSocketSecurityMode.None, buffered; " +
            "client ConnectionBufferSize 64 KiB. " + CoreWcfService,
        BindingNames.WcfHttp =>
            "CoreWCF BasicHttpBinding on Kestrel HTTP/1.1, 127.0.0.1; text SOAP 1.1 (UTF-8), BasicHttpSecurityMode.None, buffered, WSDL at ?wsdl; " +
            "client HttpClient keep-alive. " + CoreWcfService,
        BindingNames.GrpcTcp => "gRPC over TCP, 127.0.0.1. " + GrpcService,
        BindingNames.GrpcUds => "gRPC over a Unix domain socket (Kestrel ListenUnixSocket; client SocketsHttpHandler ConnectCallback). " + GrpcService,
        BindingNames.FastUds =>
            "RpcCompare's own binding (src/Bindings/RpcCompare.Bindings.Fast): System.Net.Sockets.Socket on a Unix domain socket, a 12-byte frame header, " +
            "protobuf-net bodies (the gRPC bindings' messages), proxy and server calls written per contract by RpcCompare.Fast.Generator (the reflection variant: " +
            "without them); server: a blocking accept thread and a thread per connection with blocking receives, each call dispatched inline; client: the " +
            "contract's Task methods (what the runner calls) multiplexed by call id on one connection per client factory, sent on the caller's thread under " +
            "a lock; the process's only call in flight reads its own reply, waiting up to 1.25 times its operation's recent reply time (1 to 4 times the " +
            "spin below) while the connection's reader thread stands down; otherwise the reader thread reads and completes calls on the thread pool " +
            "(synchronous methods: pooled connections, one blocking call at a time each); each side polls its socket up to " +
            $"{FastSpin.Default.TotalMicroseconds:0} µs before a receive blocks (SpinWait; half the cores spin at most); " +
            "max message 16 MiB both sides; no security but the socket file's permissions",
        BindingNames.FastTcp =>
            "fast-uds's frames, server and client over TCP on 127.0.0.1 (TCP_NODELAY both sides, 1 MiB send buffers); plaintext (the tls variant: SslStream); " +
            "otherwise as fast-uds (the next column)",
        BindingNames.Pipes =>
            "NamedPipeServerStream/NamedPipeClientStream (a Unix domain socket on Linux), PipeOptions.Asynchronous; hand-written " +
            "length-prefixed framing; no security; max message 16 MiB (default); one connection per client, calls answered in order; " +
            "socket completions handed to the thread pool (runtime default)",
        BindingNames.InProc =>
            "direct call to the implementation inside the runner process, on the host's data root: no transport, no serialization",
        _ => "",
    };

    /// <summary>A variant's column: the binding's configuration with the one knob that differs.</summary>
    public static string Describe(string binding, BindingVariant variant) => $"{Sentence(Describe(binding))} Variant {variant.Suffix}: {variant.Description}.";

    /// <summary>A description ending in a full stop, so more can follow it.</summary>
    public static string Sentence(string description) => description.EndsWith('.') ? description : description + ".";
}
