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
    private readonly IFileService? _files;
    private readonly ICallShapeService? _shapes;
    private readonly IPayloadService? _payloads;
    private readonly TopicRegistry? _topics;

    /// <summary>
    /// Any of the product's contracts may be missing: a host that serves other contracts (or only
    /// others) still starts the pipes binding, which answers a call to a contract it lacks with
    /// NotFound and names, once at start-up, the registered contracts it does not carry.
    /// </summary>
    public PipeDispatcher(
        IFileService? files = null,
        ICallShapeService? shapes = null,
        IPayloadService? payloads = null,
        TopicRegistry? topics = null,
        IEnumerable<RpcServiceDescriptor>? served = null)
    {
        _files = files;
        _shapes = shapes;
        _payloads = payloads;
        _topics = topics;
        NotCarried = (served ?? []).Select(static d => d.Contract).Where(static c => !Carries(c)).Select(static c => c.Name).ToArray();
    }

    /// <summary>The contracts the pipes binding is written for.</summary>
    public static bool Carries(Type contract) =>
        contract == typeof(IFileService) || contract == typeof(ICallShapeService) || contract == typeof(IPayloadService);

    /// <summary>Contracts the host registered (AddRpcService) that this binding does not carry.</summary>
    public IReadOnlyList<string> NotCarried { get; }

    /// <summary>The host's topics, when it serves publish/subscribe; subscriptions live on their connection (<see cref="PipePushSession"/>).</summary>
    public TopicRegistry? Topics => _topics;

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask DispatchAsync(OperationCode operation, ReadOnlyMemory<byte> body, FrameBuffer reply)
    {
        switch (operation)
        {
            case OperationCode.Ping:
                EnsureEmpty(body);
                await Served(_files, ServiceNames.FileService).PingAsync(s_pingRequest);
                break;
            case OperationCode.ReadDirectory:
                MessageCodec.WriteReadDirectoryReply(reply, await Served(_files, ServiceNames.FileService).ReadDirectoryAsync(Decode(body, MessageCodec.ReadReadDirectoryRequest)));
                break;
            case OperationCode.WriteAt:
                MessageCodec.WriteWriteAtReply(reply, await Served(_files, ServiceNames.FileService).WriteAtAsync(Decode(body, MessageCodec.ReadWriteAtRequest)));
                break;
            case OperationCode.VoidCall:
                EnsureEmpty(body);
                await Served(_shapes, ServiceNames.CallShapeService).VoidCallAsync();
                break;
            case OperationCode.TakeInt:
                await Served(_shapes, ServiceNames.CallShapeService).TakeIntAsync(Decode(body, MessageCodec.ReadIntMessage));
                break;
            case OperationCode.ReturnInt:
                EnsureEmpty(body);
                MessageCodec.WriteIntMessage(reply, await Served(_shapes, ServiceNames.CallShapeService).ReturnIntAsync());
                break;
            case OperationCode.Increment:
                MessageCodec.WriteIntMessage(reply, await Served(_shapes, ServiceNames.CallShapeService).IncrementAsync(Decode(body, MessageCodec.ReadIntMessage)));
                break;
            case OperationCode.TakePoint:
                await Served(_shapes, ServiceNames.CallShapeService).TakePointAsync(Decode(body, MessageCodec.ReadPointMessage));
                break;
            case OperationCode.EchoBytes:
                MessageCodec.WriteBytesMessage(reply, await Served(_payloads, ServiceNames.PayloadService).EchoBytesAsync(Decode(body, MessageCodec.ReadBytesMessage)));
                break;
            case OperationCode.SendBytes:
                MessageCodec.WriteLengthReply(reply, await Served(_payloads, ServiceNames.PayloadService).SendBytesAsync(Decode(body, MessageCodec.ReadBytesMessage)));
                break;
            case OperationCode.SendRecords:
                MessageCodec.WriteLengthReply(reply, await Served(_payloads, ServiceNames.PayloadService).SendRecordsAsync(Decode(body, MessageCodec.ReadRecordsMessage)));
                break;
            case OperationCode.SendString:
                MessageCodec.WriteLengthReply(reply, await Served(_payloads, ServiceNames.PayloadService).SendStringAsync(Decode(body, MessageCodec.ReadStringMessage)));
                break;
            case OperationCode.Publish:
                var topics = _topics ?? throw new RpcServiceException(RpcErrorCode.NotFound, "This host serves no publish/subscribe (no topic registry was added).");
                PushCodec.WritePublishReply(reply, await topics.PublishAsync(Decode(body, PushCodec.ReadNotification)));
                break;
            default:
                throw new PipeProtocolException($"Unknown operation code 0x{(byte)operation:X2}.");
        }
    }

    private static TService Served<TService>(TService? service, string name)
        where TService : class =>
        service ?? throw new RpcServiceException(RpcErrorCode.NotFound, $"This host does not serve {name}.");

    private static T Decode<T>(ReadOnlyMemory<byte> body, PayloadDecoder<T> decoder) => MessageCodec.Decode(body.Span, decoder);

    private static void EnsureEmpty(ReadOnlyMemory<byte> body)
    {
        if (!body.IsEmpty)
        {
            throw new PipeProtocolException($"This operation takes no arguments, but the request carried {body.Length} bytes.");
        }
    }
}
