using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Fast.Generated;

/// <summary>
/// RpcCompare's own contracts, generated here so every host and client of the binding has their
/// code (RpcCompare.Contracts stays free of any binding). The push contract is not listed: its
/// subscription is an IAsyncEnumerable, which the binding carries as push frames of its own.
/// </summary>
[FastContracts(typeof(IFileService), typeof(ICallShapeService), typeof(IPayloadService), typeof(IFileTransferService))]
internal sealed partial class BuiltInContracts
{
}
