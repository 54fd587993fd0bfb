using RpcCompare.ContractCorpus;

namespace RpcCompare.Description.Tests;

public class TypeNamesTests
{
    [Theory]
    [InlineData(typeof(bool), "bool")]
    [InlineData(typeof(byte), "byte")]
    [InlineData(typeof(sbyte), "sbyte")]
    [InlineData(typeof(char), "char")]
    [InlineData(typeof(short), "short")]
    [InlineData(typeof(ushort), "ushort")]
    [InlineData(typeof(int), "int")]
    [InlineData(typeof(uint), "uint")]
    [InlineData(typeof(long), "long")]
    [InlineData(typeof(ulong), "ulong")]
    [InlineData(typeof(float), "float")]
    [InlineData(typeof(double), "double")]
    [InlineData(typeof(decimal), "decimal")]
    [InlineData(typeof(string), "string")]
    [InlineData(typeof(object), "object")]
    [InlineData(typeof(void), "void")]
    [InlineData(typeof(int[]), "int[]")]
    [InlineData(typeof(Shape[][]), "Shape[][]")]
    [InlineData(typeof(long?), "long?")]
    [InlineData(typeof(Stream), "Stream")]
    [InlineData(typeof(List<OrderLine>), "List<OrderLine>")]
    [InlineData(typeof(Dictionary<string, List<int?>>), "Dictionary<string, List<int?>>")]
    public void Display_WritesTypesAsCSharpDoes(Type type, string expected)
    {
        Assert.Equal(expected, TypeNames.Display(type));
    }

    [Fact]
    public void Null_IsAnArgumentError()
    {
        Assert.Throws<ArgumentNullException>(() => TypeNames.Display(null!));
    }
}
