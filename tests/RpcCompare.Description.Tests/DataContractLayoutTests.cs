using System.Runtime.Serialization;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Description.DataContracts;

namespace RpcCompare.Description.Tests;

public class DataContractLayoutTests
{
    [Fact]
    public void DocumentationExample_IsInDataContractSerializersOrder()
    {
        var derived = DataContractLayout.Describe(typeof(DerivedType));
        var baseType = DataContractLayout.Describe(typeof(BaseType));

        Assert.Equal(typeof(BaseType), derived.BaseType);
        Assert.Null(baseType.BaseType);
        Assert.Equal(["zebra", "cat", "dog", "bird", "albatross", "parrot", "antelope"], baseType.Members.Concat(derived.Members).Select(m => m.Name));
        Assert.Equal([-1, -1, 0, 1, 1, 3], derived.Members.Select(m => m.Order));
    }

    [Fact]
    public void FieldNumbers_AreCountedPerLevel_WhenOrderIsIncomplete()
    {
        Assert.Equal([1, 2, 3, 4, 5, 6], DataContractLayout.Describe(typeof(DerivedType)).Members.Select(m => m.FieldNumber));
        Assert.Equal([1], DataContractLayout.Describe(typeof(BaseType)).Members.Select(m => m.FieldNumber));
        Assert.False(DataContractLayout.Describe(typeof(DerivedType)).IsNumberedByOrder);
    }

    [Fact]
    public void ServiceLibraryTemplate_NumbersItsUnorderedMembersByName()
    {
        var composite = DataContractLayout.Describe(typeof(CompositeType));

        Assert.Equal([("BoolValue", 1), ("StringValue", 2)], composite.Members.Select(m => (m.Name, m.FieldNumber)));
        Assert.Equal(DataTypeKind.DataContract, composite.Kind);
        Assert.Equal("CompositeType", composite.Name);
        Assert.Equal("http://schemas.datacontract.org/2004/07/RpcCompare.ContractCorpus", composite.Namespace);
    }

    [Fact]
    public void FullyOrderedMembers_KeepTheirOrderAsFieldNumbers()
    {
        var ordered = DataContractLayout.Describe(typeof(FullyOrdered));

        Assert.Equal([("First", 1), ("Second", 2), ("Fifth", 5)], ordered.Members.Select(m => (m.Name, m.FieldNumber)));
        Assert.True(ordered.IsNumberedByOrder);
    }

    [Fact]
    public void ProductContracts_KeepTheirWire()
    {
        var request = DataContractLayout.Describe(typeof(WriteAtRequest));

        Assert.True(request.IsNumberedByOrder);
        Assert.All(request.Members, m => Assert.Equal(m.Order, m.FieldNumber));
    }

    [Fact]
    public void NoMembers_IsNotNumberedByOrder()
    {
        Assert.False(DataContractLayout.Describe(typeof(NoMembers)).IsNumberedByOrder);
        Assert.Empty(DataContractLayout.Describe(typeof(NoMembers)).Members);
    }

    [Fact]
    public void SharedOrder_IsNumberedOneToN_ByName()
    {
        var shared = DataContractLayout.Describe(typeof(SharedOrder));

        Assert.Equal([("A", 1), ("B", 2)], shared.Members.Select(m => (m.Name, m.FieldNumber)));
        Assert.False(shared.IsNumberedByOrder);
    }

    [Fact]
    public void DataMemberName_DecidesTheOrder_AndPrivateMembersCount()
    {
        var renamed = DataContractLayout.Describe(typeof(RenamedMembers));

        Assert.Equal(["Beta", "Middle", "aardvark"], renamed.Members.Select(m => m.Name));
        Assert.Equal("Zoo", renamed.Members[2].Member.Name);
        Assert.Equal(("Renamed", "urn:corpus:data"), (renamed.Name, renamed.Namespace));
        Assert.Equal([typeof(int), typeof(string), typeof(int)], renamed.Members.Select(m => m.Type));
    }

    [Fact]
    public void PlainObject_TakesPublicWritableMembers_AndGetOnlyCollections()
    {
        var plain = DataContractLayout.Describe(typeof(PlainOldObject));

        Assert.Equal(DataTypeKind.Poco, plain.Kind);
        Assert.Equal(["Field", "GetOnlyCollection", "Property"], plain.Members.Select(m => m.Name));
        Assert.Equal([1, 2, 3], plain.Members.Select(m => m.FieldNumber));
        Assert.All(plain.Members, m => Assert.Equal(-1, m.Order));
    }

    [Fact]
    public void RequiredAndEmitDefault_AreCarried()
    {
        var member = DataContractLayout.Describe(typeof(RpcFault)).Members[0];
        var attribute = (DataMemberAttribute)Attribute.GetCustomAttribute(member.Member, typeof(DataMemberAttribute))!;

        Assert.Equal(attribute.IsRequired, member.IsRequired);
        Assert.Equal(attribute.EmitDefaultValue, member.EmitDefaultValue);
    }

    [Theory]
    [InlineData(typeof(DuplicateNames), "contains two members 'A' and 'B' with the same data member name 'same'")]
    [InlineData(typeof(GetterOnly), "No set method for property 'Value'")]
    [InlineData(typeof(MissingKnownTypeMethod), "specifies a method named 'Missing' to provide known types. Static method 'Missing()' was not found on this type")]
    [InlineData(typeof(AttributedOnPlain), "cannot inherit from a type that is not marked with DataContractAttribute or SerializableAttribute")]
    public void Refused_AsDataContractSerializerRefuses(Type type, string reason)
    {
        var error = Assert.Throws<InvalidDataContractException>(() => DataContractLayout.Describe(type));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void KnownTypes_ComeFromTypesAndMethods()
    {
        Assert.Equal([typeof(Circle), typeof(Square)], DataContractLayout.Describe(typeof(Shape)).KnownTypes);
        Assert.Equal([typeof(Circle)], DataContractLayout.Describe(typeof(Hexagon)).KnownTypes);
        Assert.Empty(DataContractLayout.Describe(typeof(Circle)).KnownTypes);
    }

    [Theory]
    [InlineData(typeof(int))]
    [InlineData(typeof(string))]
    [InlineData(typeof(byte[]))]
    [InlineData(typeof(int?))]
    [InlineData(typeof(DateTime))]
    [InlineData(typeof(List<Order>))]
    [InlineData(typeof(Dictionary<string, int>))]
    [InlineData(typeof(Stream))]
    [InlineData(typeof(RpcErrorCode))]
    [InlineData(typeof(IDisposable))]
    [InlineData(typeof(Task<int>))]
    public void ValuesAndCollections_AreNotLaidOut(Type type)
    {
        Assert.False(DataContractLayout.IsDataType(type));
        Assert.Throws<ArgumentException>(() => DataContractLayout.Of(type));
    }

    [Fact]
    public void Of_LaysOutEachTypeOnce()
    {
        Assert.Same(DataContractLayout.Of(typeof(Order)), DataContractLayout.Of(typeof(Order)));
        Assert.Equal(DataContractLayout.Describe(typeof(Order)).Members.Select(m => m.Name), DataContractLayout.Of(typeof(Order)).Members.Select(m => m.Name));
        Assert.StartsWith("System.Int32 is written as one value, not laid out by members.", Assert.Throws<ArgumentException>(() => DataContractLayout.Of(typeof(int))).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Reachable_FollowsMembersCollectionsBaseAndKnownTypes()
    {
        var reached = DataContractLayout.Reachable([typeof(Task<int>), typeof(Order), typeof(Hexagon[])]).Select(d => d.Type).ToList();

        Assert.Equal([typeof(Order), typeof(Hexagon), typeof(OrderLine), typeof(Shape), typeof(Circle), typeof(Square)], reached);
    }
}
