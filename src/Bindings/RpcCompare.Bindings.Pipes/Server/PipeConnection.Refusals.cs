using System.Text;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Server;

/// <summary>The connection's refusals: an over-limit request drained and answered, or the connection closed; an error reply.</summary>
internal sealed partial class PipeConnection
{
    /// <summary>Answers an over-limit request; returns false when the connection must close.</summary>
    private async ValueTask<bool> RefuseOversizedAsync(long length, FrameBuffer reply, CancellationToken cancellationToken)
    {
        var message = $"The request of {length} bytes exceeds the pipes server's limit of {_options.MaxMessageSize} bytes (Pipes:MaxMessageSize).";
        var drainable = length <= (long)_options.MaxMessageSize * _options.DrainFactor;
        if (drainable)
        {
            // Read and drop it so the client, which may still be writing, gets the error and keeps its connection.
            await DrainAsync(length, cancellationToken);
        }
        else
        {
            PipeServerLog.OversizedFrameClosed(_logger, _id, length);
            _incidents?.Add(ConnectionIncident.Malformed, "oversized frame");
            message += " The connection is closed.";
        }

        var status = WriteError(reply, RpcErrorCode.QuotaExceeded, message);
        await _stream.WriteAsync(reply.Complete(status), cancellationToken);
        return drainable;
    }

    private async ValueTask DrainAsync(long length, CancellationToken cancellationToken)
    {
        var scratch = new byte[64 * 1024];
        while (length > 0)
        {
            var read = await _stream.ReadAsync(scratch.AsMemory(0, (int)Math.Min(scratch.Length, length)), cancellationToken);
            if (read == 0)
            {
                throw new EndOfStreamException();
            }

            length -= read;
        }
    }

    private static byte WriteError(FrameBuffer reply, RpcErrorCode code, string message)
    {
        reply.Reset();
        Encoding.UTF8.GetBytes(message, reply.Reserve(Encoding.UTF8.GetByteCount(message)));
        return (byte)code;
    }
}
