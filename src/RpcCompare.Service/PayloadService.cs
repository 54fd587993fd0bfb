using RpcCompare.Contracts;
using RpcCompare.Service.Internal;

namespace RpcCompare.Service;

/// <summary>The payload operations. Size limits belong to the bindings, which see the bytes first.</summary>
public sealed class PayloadService : IPayloadService
{
    public Task<BytesMessage> EchoBytesAsync(BytesMessage request)
    {
        Requests.Require(request);
        return Task.FromResult(new BytesMessage { Data = request.Data ?? [] });
    }

    public Task<LengthReply> SendBytesAsync(BytesMessage request)
    {
        Requests.Require(request);
        return Task.FromResult(new LengthReply { Length = request.Data?.Length ?? 0 });
    }

    public Task<LengthReply> SendRecordsAsync(RecordsMessage request)
    {
        Requests.Require(request);
        return Task.FromResult(new LengthReply { Length = request.Records?.Length ?? 0 });
    }

    public Task<LengthReply> SendStringAsync(StringMessage request)
    {
        Requests.Require(request);
        return Task.FromResult(new LengthReply { Length = request.Text?.Length ?? 0 });
    }
}
