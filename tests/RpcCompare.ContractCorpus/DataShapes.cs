using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>
/// Data types laid out by DataContractSerializer's rules rather than protobuf's: inherited unordered
/// members, a plain class, renamed members, a member-less contract, nullable values and collections.
/// </summary>
[ServiceContract(Namespace = "urn:corpus:data")]
public interface IDataShapes
{
    /// <summary>Declared first: the base type is reached before its known subtype.</summary>
    [OperationContract]
    [ServiceKnownType(typeof(DerivedType))]
    string Describe(BaseType value);

    /// <summary>A data contract by reference: it comes back changed.</summary>
    [OperationContract]
    void Normalize(ref PlainOldObject value);

    [OperationContract]
    DerivedType Reverse(DerivedType value);

    [OperationContract]
    PlainOldObject Twice(PlainOldObject value);

    [OperationContract]
    RenamedMembers Rename(RenamedMembers value, string suffix);

    [OperationContract]
    int? Maybe(int? value, List<string> items, Dictionary<string, int> counts);

    [OperationContract]
    NoMembers Nothing(NoMembers value);
}
