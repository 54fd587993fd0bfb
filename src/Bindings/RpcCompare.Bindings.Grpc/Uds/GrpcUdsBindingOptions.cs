namespace RpcCompare.Bindings.Grpc.Uds;

/// <summary>Settings of grpc-uds: gRPC over HTTP/2 on a Unix domain socket.</summary>
public sealed class GrpcUdsBindingOptions : GrpcBindingOptions
{
    public const string SectionName = "GrpcUds";

    /// <summary>Absolute socket path. Defaults to null: the host puts it in its private socket directory.</summary>
    public string? Path { get; set; }
}
