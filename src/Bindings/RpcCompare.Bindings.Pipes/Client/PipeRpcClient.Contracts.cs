using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Client;

/// <summary>The contracts, each operation one frame out and one frame back.</summary>
internal sealed partial class PipeRpcClient : IFileService, ICallShapeService, IPayloadService
{
    private static readonly PayloadDecoder<object?> s_noReply = static (ref PayloadReader _) => null;
    private static readonly PingReply s_pingReply = new();
    private static readonly PayloadDecoder<PingReply> s_pingDecoder = static (ref PayloadReader _) => s_pingReply;

    public Task<PingReply> PingAsync(PingRequest request) =>
        CallAsync(OperationCode.Ping, s_pingReply, MessageCodec.WriteEmpty, s_pingDecoder).AsTask();

    public Task<ReadDirectoryReply> ReadDirectoryAsync(ReadDirectoryRequest request) =>
        CallAsync(OperationCode.ReadDirectory, Required(request), MessageCodec.WriteReadDirectoryRequest, MessageCodec.ReadReadDirectoryReply).AsTask();

    public Task<WriteAtReply> WriteAtAsync(WriteAtRequest request) =>
        CallAsync(OperationCode.WriteAt, Required(request), MessageCodec.WriteWriteAtRequest, MessageCodec.ReadWriteAtReply).AsTask();

    public Task VoidCallAsync() =>
        CallAsync<object?, object?>(OperationCode.VoidCall, null, MessageCodec.WriteEmpty, s_noReply).AsTask();

    public Task TakeIntAsync(IntMessage request) =>
        CallAsync(OperationCode.TakeInt, Required(request), MessageCodec.WriteIntMessage, s_noReply).AsTask();

    public Task<IntMessage> ReturnIntAsync() =>
        CallAsync<object?, IntMessage>(OperationCode.ReturnInt, null, MessageCodec.WriteEmpty, MessageCodec.ReadIntMessage).AsTask();

    public Task<IntMessage> IncrementAsync(IntMessage request) =>
        CallAsync(OperationCode.Increment, Required(request), MessageCodec.WriteIntMessage, MessageCodec.ReadIntMessage).AsTask();

    public Task TakePointAsync(PointMessage request) =>
        CallAsync(OperationCode.TakePoint, Required(request), MessageCodec.WritePointMessage, s_noReply).AsTask();

    public Task<BytesMessage> EchoBytesAsync(BytesMessage request) =>
        CallAsync(OperationCode.EchoBytes, Required(request), MessageCodec.WriteBytesMessage, MessageCodec.ReadBytesMessage).AsTask();

    public Task<LengthReply> SendBytesAsync(BytesMessage request) =>
        CallAsync(OperationCode.SendBytes, Required(request), MessageCodec.WriteBytesMessage, MessageCodec.ReadLengthReply).AsTask();

    public Task<LengthReply> SendRecordsAsync(RecordsMessage request) =>
        CallAsync(OperationCode.SendRecords, Required(request), MessageCodec.WriteRecordsMessage, MessageCodec.ReadLengthReply).AsTask();

    public Task<LengthReply> SendStringAsync(StringMessage request) =>
        CallAsync(OperationCode.SendString, Required(request), MessageCodec.WriteStringMessage, MessageCodec.ReadLengthReply).AsTask();

    // A null request is a caller bug; fail here, as the in-process service would, not on the server.
    private static T Required<T>(T request)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(request, nameof(request));
        return request;
    }
}
