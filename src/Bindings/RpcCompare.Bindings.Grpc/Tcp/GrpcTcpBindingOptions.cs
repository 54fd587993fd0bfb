namespace RpcCompare.Bindings.Grpc.Tcp;

/// <summary>Settings of grpc-tcp: gRPC over HTTP/2 cleartext (h2c) on 127.0.0.1.</summary>
public sealed class GrpcTcpBindingOptions : GrpcBindingOptions
{
    public const string SectionName = "GrpcTcp";

    /// <summary>TCP port. Defaults to 0: a free port, published in the endpoints file.</summary>
    public int Port { get; set; }

    /// <summary>
    /// IP address to listen on. Defaults to 127.0.0.1: nothing outside this machine reaches the
    /// binding. A container listens on 0.0.0.0 inside its own network namespace and publishes
    /// the port on the host's loopback.
    /// </summary>
    public string ListenAddress { get; set; } = "127.0.0.1";
}
