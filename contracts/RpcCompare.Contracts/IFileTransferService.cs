using System.ServiceModel;

namespace RpcCompare.Contracts;

/// <summary>
/// Files and payloads as streams, WCF's streamed transfer: a <see cref="Stream"/> is the whole
/// request or reply, passed in pieces, so its length is bounded by the binding's stream limit
/// and not by memory. Its own contract because WCF sets the transfer mode per endpoint: the
/// buffered contracts keep their wire and their speed.
/// </summary>
[ServiceContract(Name = ServiceNames.FileTransferService, Namespace = ServiceNames.Namespace)]
public interface IFileTransferService
{
    /// <summary>The file at a path under the data root (the file service's path rules).</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<Stream> DownloadAsync(DownloadRequest request);

    /// <summary>
    /// Stores the stream as a new file under the data root's uploads directory and says where.
    /// The host names the file: the stream is the whole request, so no path can travel beside it.
    /// </summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<UploadReply> UploadAsync(Stream data);

    /// <summary>A generated stream of the requested length, no disk involved: what the payload suite's streamed rows read.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<Stream> ReadPatternAsync(PatternRequest request);

    /// <summary>Reads the stream to its end and returns its length: what the payload suite's streamed rows send.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<LengthReply> CountAsync(Stream data);
}
