using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// A contract as the server bound it on one connection: the id it gave each operation, 0 and a
/// reason for one it does not serve (a different build of the contract, a contract it does not host).
/// </summary>
internal sealed class BoundContract
{
    private readonly ushort[] _ids;
    private readonly List<string> _refusals;

    private BoundContract(ushort[] ids, List<string> refusals)
    {
        _ids = ids;
        _refusals = refusals;
    }

    /// <summary>
    /// The server's answer to a Bind of <paramref name="contract"/>, a Bound frame's body. Bytes that
    /// are not one, or an answer of the wrong length, are the server's fault and end the connection.
    /// </summary>
    public static BoundContract Read(ReadOnlySpan<byte> body, FastContract contract)
    {
        BoundBody reply;
        try
        {
            reply = Body.ReadProtocol<BoundBody>(body);
        }
        catch (ProtoBuf.ProtoException e)
        {
            throw new IOException($"The server answered a bind with bytes that are not a bind reply: {e.Message}", e);
        }

        return reply.Ids.Count == contract.OperationNames.Count
            ? new BoundContract([.. reply.Ids.Select(i => (ushort)i)], reply.Refusals)
            : throw new IOException($"The server answered a bind of {contract.OperationNames.Count} operations with {reply.Ids.Count} ids.");
    }

    /// <summary>The id requests of operation <paramref name="operation"/> carry; NotFound, with the server's reason, where it gave none.</summary>
    public ushort IdOf(int operation, OperationDescription description)
    {
        var id = _ids[operation];
        return id != 0
            ? id
            : throw new RpcServiceException(RpcErrorCode.NotFound, $"{description.Name}: {_refusals[_ids.Take(operation).Count(i => i == 0)]}");
    }
}
