using System.Reflection;

namespace RpcCompare.Description.DataContracts;

/// <summary>How DataContractSerializer chooses a type's members.</summary>
public enum DataTypeKind
{
    /// <summary>[DataContract]: exactly the [DataMember] fields and properties, of any visibility.</summary>
    DataContract,

    /// <summary>No attribute ("plain old CLR object"): public writable fields and public get/set properties, minus [IgnoreDataMember].</summary>
    Poco,
}

/// <summary>
/// One data member in DataContractSerializer's order within its own level of the hierarchy.
/// <see cref="Order"/> is [DataMember(Order)] (-1 when unset, as DataMemberAttribute defaults);
/// <see cref="FieldNumber"/> is the protobuf field number a binding that numbers fields uses
/// (see <see cref="DataContractLayout"/> for the rule).
/// </summary>
public sealed record DataMemberDescription(
    string Name,
    MemberInfo Member,
    Type Type,
    int Order,
    bool IsRequired,
    bool EmitDefaultValue,
    int FieldNumber);

/// <summary>
/// A data type's own level: its members (base types' members belong to the base's description,
/// which DataContractSerializer writes first), its base data type, and the known types it declares.
/// </summary>
public sealed record DataTypeDescription(
    Type Type,
    string Name,
    string Namespace,
    DataTypeKind Kind,
    Type? BaseType,
    IReadOnlyList<DataMemberDescription> Members,
    IReadOnlyList<Type> KnownTypes)
{
    /// <summary>True when every member's field number is its explicit [DataMember(Order)].</summary>
    public bool IsNumberedByOrder => Members.Count > 0 && Members.All(m => m.FieldNumber == m.Order);
}
