using System.ServiceModel;

namespace RpcCompare.Contracts;

/// <summary>
/// The operations of the original "System.IO.Pipes versus WCF named pipes" measurement:
/// an empty call, a directory read and a small write into a large file.
/// All paths are relative to the service's data root.
/// </summary>
[ServiceContract(Name = ServiceNames.FileService, Namespace = ServiceNames.Namespace)]
public interface IFileService
{
    /// <summary>Does nothing; measures the cost of a call.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<PingReply> PingAsync(PingRequest request);

    /// <summary>Lists the entries of a directory under the data root.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<ReadDirectoryReply> ReadDirectoryAsync(ReadDirectoryRequest request);

    /// <summary>Writes <see cref="WriteAtRequest.Count"/> bytes into an existing file, optionally several times.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<WriteAtReply> WriteAtAsync(WriteAtRequest request);
}
