using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>Operation names and actions given explicitly, and a parameter renamed on the wire.</summary>
[ServiceContract(Name = "Arithmetic", Namespace = "urn:corpus:names")]
public interface IRenamedOperations
{
    [OperationContract(Name = "Sum", Action = "urn:corpus:sum", ReplyAction = "urn:corpus:sum-reply")]
    int Add(int a, int b);

    [OperationContract(Name = "SumOfDoubles")]
    double Add(double a, [MessageParameter(Name = "addend")] double b);

    [OperationContract]
    [return: MessageParameter(Name = "total")]
    Task<long> TotalAsync(int[] values);

    /// <summary>Synchronous, so WCF keeps the Async in its name.</summary>
    [OperationContract]
    int CountAsync(string text);
}

/// <summary>No namespace: WCF builds actions from urn:ContractName.</summary>
[ServiceContract(Namespace = "")]
public interface IWithoutNamespace
{
    [OperationContract]
    void Touch();
}
