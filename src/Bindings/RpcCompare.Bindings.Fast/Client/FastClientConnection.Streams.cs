using System.Buffers;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

// WCF's streamed transfer on a client connection: a Stream request sent in chunks after an empty
// request, a Stream reply read chunk by chunk by the ReplyStream that holds the connection.
internal sealed partial class FastClientConnection
{
    public bool SendFrame(FrameKind kind, uint callId, ReadOnlySpan<byte> body) => SendFrame(kind, 0, callId, body);

    /// <summary>
    /// The next chunk of call <paramref name="callId"/>'s reply stream, valid until the next read;
    /// false at its end. An Error frame ends the stream with the error the server sent.
    /// </summary>
    public bool NextChunk(uint callId, OperationDescription operation, out ReadOnlySpan<byte> chunk)
    {
        var kind = Receive(callId, operation, out chunk);
        switch (kind)
        {
            case FrameKind.StreamData:
                return true;
            case FrameKind.StreamEnd:
                LastUsed = Environment.TickCount64;
                return false;
            default:
                IsBroken = true;
                throw Unexpected(callId, kind, callId);
        }
    }

    private TReply CallStreamed<TRequest, TReply>(ushort id, OperationDescription description, TRequest request, bool streamIn, bool streamOut, FastConnectionPool? pool)
    {
        var callId = NextCallId();
        if (streamIn)
        {
            _writer.ResetRequest();
            Send(_writer.Complete(FrameKind.Request, id, callId));
            try
            {
                StreamChunks.Send((Stream)(object)request!, callId, this);
            }
            catch
            {
                // The caller's stream failed part-way: the server waits for the rest of a request it will never get.
                IsBroken = true;
                throw;
            }
        }
        else
        {
            _writer.ResetRequest();
            Body.WriteMessage(_writer, request);
            ThrowIfTooLarge();
            Send(_writer.Complete(FrameKind.Request, id, callId));
        }

        var body = Answer(callId, FrameKind.Reply, description);
        return streamOut
            ? (TReply)(object)new ReplyStream(this, pool ?? throw new ArgumentNullException(nameof(pool)), callId, description)
            : Replies.Read<TReply>(body, description);
    }

    private bool SendFrame(FrameKind kind, ushort operation, uint callId, ReadOnlySpan<byte> body)
    {
        _writer.Reset();
        _writer.Write(body);
        return Send(_writer.Complete(kind, operation, callId));
    }
}
