using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>out and ref parameters, a void request/reply operation and a one-way one.</summary>
[ServiceContract(Namespace = "urn:corpus:parameters")]
public interface IParameterShapes
{
    /// <summary>Request: value, label. Reply: the return value, then remainder, then label.</summary>
    [OperationContract]
    int Divide(int value, out int remainder, ref string label, int divisor);

    /// <summary>Not one-way: the client waits for an empty reply, and faults arrive.</summary>
    [OperationContract]
    void Reset();

    [OperationContract(IsOneWay = true)]
    void Fire(string message);

    [OperationContract]
    Task NotifyAsync(string message);
}
