namespace RpcCompare.Bindings;

/// <summary>
/// A binding client that can ask the server's standard health service (grpc.health.v1 for the
/// gRPC bindings), as orchestrators and load balancers do, rather than calling an operation.
/// </summary>
public interface IBindingHealthProbe
{
    /// <summary>The status the server reports for <paramref name="service"/> ("" = the server as a whole), e.g. SERVING.</summary>
    Task<string> CheckHealthAsync(string address, string service, CancellationToken cancellationToken = default);
}
