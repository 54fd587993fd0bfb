using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>A Reply frame's body as the operation's reply message, the same on every kind of connection.</summary>
internal static class Replies
{
    // A reply that does not decode was read whole: the connection is fine, the builds disagree.
    public static TReply Read<TReply>(ReadOnlySpan<byte> body, OperationDescription operation)
    {
        try
        {
            return Body.ReadMessage<TReply>(body);
        }
        catch (Exception e)
        {
            throw new InvalidDataException($"The reply to {operation.Name} is not a valid message of it (do client and server use the same contract?): {e.Message}", e);
        }
    }
}
