using System.Runtime.Serialization;
using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>The "WCF Service Library" project template: default namespace, [DataMember] without Order.</summary>
[ServiceContract]
public interface IService1
{
    [OperationContract]
    string GetData(int value);

    [OperationContract]
    CompositeType GetDataUsingDataContract(CompositeType composite);
}

[DataContract]
public class CompositeType
{
    [DataMember]
    public bool BoolValue { get; set; } = true;

    [DataMember]
    public string StringValue { get; set; } = "Hello ";
}
