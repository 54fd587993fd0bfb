using System.Runtime.CompilerServices;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Pipes.Server;

/// <summary>
/// Decodes a request, calls the service and encodes the reply. Hand-written per contract by
/// design: this is the code a framework would generate or reflect over.
/// </summary>
internal sealed class PipeDispatcher
{
    private static readonly PingRequest s_pingRequest = new();
    private readonly IFileService _files;
    private readonly ICallShapeService _shapes;
    private readonly IPayloadService _payloads;
    private readonly TopicRegistry? _topics;

    public PipeDispatcher(IFileService files, ICallShapeService shapes, IPayloadService payloads, TopicRegistry? topics = null)
    {
        _files = files;
        _shapes = shapes;
        _payloads = payloads;
        _topics = topics;
    }

    /// <summary>The host's topics, when it serves publish/subscribe; subscriptions live on their connection (<see cref="PipePushSession"/>).</summary>
    public TopicRegistry? Topics => _topics;

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask DispatchAsync(OperationCode operation, ReadOnlyMemory<byte> body, FrameBuffer reply)
    {
        switch (operation)
        {
            case OperationCode.Ping:
                EnsureEmpty(body);
                await _files.PingAsync(s_pingRequest);
                break;
            case OperationCode.ReadDirectory:
                MessageCodec.WriteReadDirectoryReply(reply, await _files.ReadDirectoryAsync(Decode(body, MessageCodec.ReadReadDirectoryRequest)));
                break;
            case OperationCode.WriteAt:
                MessageCodec.WriteWriteAtReply(reply, await _files.WriteAtAsync(Decode(body, MessageCodec.ReadWriteAtRequest)));
                break;
            case OperationCode.VoidCall:
                EnsureEmpty(body);
                await _shapes.VoidCallAsync();
                break;
            case OperationCode.TakeInt:
                await _shapes.TakeIntAsync(Decode(body, MessageCodec.ReadIntMessage));
                break;
            case OperationCode.ReturnInt:
                EnsureEmpty(body);
                MessageCodec.WriteIntMessage(reply, await _shapes.ReturnIntAsync());
                break;
            case OperationCode.Increment:
                MessageCodec.WriteIntMessage(reply, await _shapes.IncrementAsync(Decode(body, MessageCodec.ReadIntMessage)));
                break;
            case OperationCode.TakePoint:
                await _shapes.TakePointAsync(Decode(body, MessageCodec.ReadPointMessage));
                break;
            case OperationCode.EchoBytes:
                MessageCodec.WriteBytesMessage(reply, await _payloads.EchoBytesAsync(Decode(body, MessageCodec.ReadBytesMessage)));
                break;
            case OperationCode.SendBytes:
                MessageCodec.WriteLengthReply(reply, await _payloads.SendBytesAsync(Decode(body, MessageCodec.ReadBytesMessage)));
                break;
            case OperationCode.SendRecords:
                MessageCodec.WriteLengthReply(reply, await _payloads.SendRecordsAsync(Decode(body, MessageCodec.ReadRecordsMessage)));
                break;
            case OperationCode.SendString:
                MessageCodec.WriteLengthReply(reply, await _payloads.SendStringAsync(Decode(body, MessageCodec.ReadStringMessage)));
                break;
            case OperationCode.Publish:
                var topics = _topics ?? throw new RpcServiceException(RpcErrorCode.NotFound, "This host serves no publish/subscribe (no topic registry was added).");
                PushCodec.WritePublishReply(reply, topics.Publish(Decode(body, PushCodec.ReadNotification)));
                break;
            default:
                throw new PipeProtocolException($"Unknown operation code 0x{(byte)operation:X2}.");
        }
    }

    private static T Decode<T>(ReadOnlyMemory<byte> body, PayloadDecoder<T> decoder) => MessageCodec.Decode(body.Span, decoder);

    private static void EnsureEmpty(ReadOnlyMemory<byte> body)
    {
        if (!body.IsEmpty)
        {
            throw new PipeProtocolException($"This operation takes no arguments, but the request carried {body.Length} bytes.");
        }
    }
}
