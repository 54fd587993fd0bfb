using System.ServiceModel;

namespace RpcCompare.Contracts;

/// <summary>
/// Payload operations for throughput and ping-pong, from 10 bytes to 10,000,000 bytes.
/// Each binding's message-size quota bounds what passes; past it a call fails with
/// <see cref="RpcErrorCode.QuotaExceeded"/>.
/// </summary>
[ServiceContract(Name = ServiceNames.PayloadService, Namespace = ServiceNames.Namespace)]
public interface IPayloadService
{
    /// <summary>Returns the bytes it was sent (ping-pong).</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<BytesMessage> EchoBytesAsync(BytesMessage request);

    /// <summary>Returns how many bytes it was sent (one-way throughput).</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<LengthReply> SendBytesAsync(BytesMessage request);

    /// <summary>Returns how many 32-bit records it was sent.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<LengthReply> SendRecordsAsync(RecordsMessage request);

    /// <summary>Returns how many UTF-16 characters it was sent.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<LengthReply> SendStringAsync(StringMessage request);
}
