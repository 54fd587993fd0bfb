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

    /// <summary>
    /// A streamed call: the request (a Stream sent in chunks after an empty request) and the reply (a
    /// Stream read as the caller reads). The call timeout and the caller's token bound it up to its
    /// reply as any call's (<see cref="StreamedWait"/>: either closes the connection), and the timeout
    /// bounds each wait of the reply stream for its next chunk (<see cref="ReplyStream"/>).
    /// </summary>
    private TReply CallStreamed<TRequest, TReply>(ushort id, OperationDescription description, TRequest request, bool streamIn, bool streamOut,
        FastConnectionPool? pool, CancellationToken cancellationToken)
    {
        using var wait = StreamedWait.Start(this, _options.CallTimeout, cancellationToken);
        uint callId;
        ReadOnlySpan<byte> body;
        try
        {
            callId = SendRequest(id, request, streamIn);
            body = Answer(callId, FrameKind.Reply, description);
        }
        catch (IOException e) when (wait is { Ended: true })
        {
            // The connection closed under the call (not the server's error, which is the caller's as it came).
            throw wait.Failure(e, FastClientErrors.StreamedCallTimedOut(description.Name, wait.Timeout));
        }

        // Ended as a reply stream's first frame came, the connection is closed and the stream could not be read:
        // the call fails as the caller asked. A whole reply is the caller's all the same (the server finished the
        // call; the connection, broken, is not reused). Once disposed, the wait cannot end any more.
        wait?.Dispose();
        if (streamOut && wait is { Ended: true })
        {
            throw wait.Failure(null, FastClientErrors.StreamedCallTimedOut(description.Name, wait.Timeout));
        }

        return streamOut
            ? (TReply)(object)new ReplyStream(this, pool ?? throw new ArgumentNullException(nameof(pool)), callId, description)
            : Replies.Read<TReply>(body, description);
    }

    /// <summary>The request of a streamed call: its message, or an empty request and then the caller's stream in chunks. Returns its call id.</summary>
    private uint SendRequest<TRequest>(ushort id, TRequest request, bool streamIn)
    {
        var callId = NextCallId();
        _writer.ResetRequest();
        if (!streamIn)
        {
            Body.WriteMessage(_writer, request);
            ThrowIfTooLarge();
            Send(_writer.Complete(FrameKind.Request, id, callId));
            return callId;
        }

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

        return callId;
    }

    private bool SendFrame(FrameKind kind, ushort operation, uint callId, ReadOnlySpan<byte> body)
    {
        _writer.Reset();
        _writer.Write(body);
        return Send(_writer.Complete(kind, operation, callId));
    }
}
