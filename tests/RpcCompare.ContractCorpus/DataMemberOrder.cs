using System.Runtime.Serialization;

namespace RpcCompare.ContractCorpus;

// DataContractSerializer's member order, as its documentation's "Data Member Order" example
// writes it: expected order zebra, cat, dog, bird, albatross, parrot, antelope.

[DataContract]
public class BaseType
{
    [DataMember]
    public string zebra = "";
}

[DataContract]
public class DerivedType : BaseType
{
    [DataMember(Order = 0)]
    public string bird = "";

    [DataMember(Order = 1)]
    public string parrot = "";

    [DataMember]
    public string dog = "";

    [DataMember(Order = 3)]
    public string antelope = "";

    [DataMember]
    public string cat = "";

    [DataMember(Order = 1)]
    public string albatross = "";
}

/// <summary>Sorted by data member name, not CLR name; private members count; unmarked ones do not.</summary>
[DataContract(Name = "Renamed", Namespace = "urn:corpus:data")]
public class RenamedMembers
{
    [DataMember(Name = "aardvark")]
    public int Zoo { get; set; }

    [DataMember]
    private string Middle { get; set; } = "";

    [DataMember]
    public int Beta;

    public int NotAMember { get; set; }

    public string Describe() => Middle;
}

/// <summary>Every member ordered 1..n: the field numbers are the Order values (a protobuf-style contract).</summary>
[DataContract]
public class FullyOrdered
{
    [DataMember(Order = 2)]
    public string Second { get; set; } = "";

    [DataMember(Order = 1)]
    public string First { get; set; } = "";

    [DataMember(Order = 5)]
    public string Fifth { get; set; } = "";
}

/// <summary>Ordered, but two members share an Order: numbered 1..n instead.</summary>
[DataContract]
public class SharedOrder
{
    [DataMember(Order = 1)]
    public string B { get; set; } = "";

    [DataMember(Order = 1)]
    public string A { get; set; } = "";
}

/// <summary>No attribute: public writable fields and get/set properties, minus [IgnoreDataMember].</summary>
public class PlainOldObject
{
    public int Field;

    public readonly int ReadOnlyField;

    public string Property { get; set; } = "";

    public string InternalSetter { get; internal set; } = "";

    public List<string> GetOnlyCollection { get; } = [];

    [IgnoreDataMember]
    public string Ignored { get; set; } = "";

    internal string Hidden { get; set; } = "";

    public string this[int index] => "";
}

/// <summary>Two members with one data member name.</summary>
[DataContract]
public class DuplicateNames
{
    [DataMember(Name = "same")]
    public int A { get; set; }

    [DataMember(Name = "same")]
    public int B { get; set; }
}

/// <summary>A [DataMember] property without a setter.</summary>
[DataContract]
public class GetterOnly
{
    [DataMember]
    public int Value => 1;
}

/// <summary>A data contract deriving from a plain class.</summary>
[DataContract]
public class AttributedOnPlain : PlainOldObject
{
    [DataMember]
    public int Extra { get; set; }
}

/// <summary>A data contract with no members (protobuf: an empty message).</summary>
[DataContract]
public class NoMembers
{
}

/// <summary>[KnownType] naming a method that does not exist.</summary>
[DataContract]
[KnownType("Missing")]
public class MissingKnownTypeMethod
{
    [DataMember]
    public int Value { get; set; }
}
