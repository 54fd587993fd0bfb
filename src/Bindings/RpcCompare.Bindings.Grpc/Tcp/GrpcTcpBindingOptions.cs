namespace RpcCompare.Bindings.Grpc.Tcp;

/// <summary>Settings of grpc-tcp: gRPC over HTTP/2 cleartext (h2c) on 127.0.0.1.</summary>
public sealed class GrpcTcpBindingOptions : GrpcBindingOptions
{
    public const string SectionName = "GrpcTcp";

    /// <summary>TCP port on 127.0.0.1. Defaults to 0: a free port, published in the endpoints file.</summary>
    public int Port { get; set; }
}
