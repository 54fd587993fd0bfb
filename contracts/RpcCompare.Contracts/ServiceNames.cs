namespace RpcCompare.Contracts;

/// <summary>
/// Dotted, versioned service names. gRPC routes and generated .proto packages are derived from
/// them, so they must stay dotted: an undotted name yields a package that does not match the route.
/// </summary>
public static class ServiceNames
{
    public const string Namespace = "urn:rpccompare:v1";
    public const string FileService = "rpccompare.v1.FileService";
    public const string CallShapeService = "rpccompare.v1.CallShapeService";
    public const string PayloadService = "rpccompare.v1.PayloadService";
    public const string FileTransferService = "rpccompare.v1.FileTransferService";
    public const string PushService = "rpccompare.v1.PushService";
    public const string PushDuplexService = "rpccompare.v1.PushDuplexService";
    public const string PushCallback = "rpccompare.v1.PushCallback";

    /// <summary>
    /// The SOAP action of every <see cref="RpcFault"/>. One action for all operations, so a server
    /// sends a refusal without knowing which operation it answers; WS-Addressing bindings
    /// (NetTcp, UDS) match a typed fault by its action.
    /// </summary>
    public const string FaultAction = Namespace + ":RpcFault";
}
