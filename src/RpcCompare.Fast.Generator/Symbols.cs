using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RpcCompare.Fast.Generator;

/// <summary>Questions ContractReader asks of symbols, by metadata name (the generator references no contract assembly).</summary>
internal static class Symbols
{
    /// <summary>
    /// A data contract that is a message by itself (RpcCompare.Description's DataContractLayout.IsDataType,
    /// classes only): [DataContract], or a creatable class that is no collection.
    /// </summary>
    public static bool IsMessageClass(ITypeSymbol type)
    {
        if (type.TypeKind != TypeKind.Class || type.SpecialType is SpecialType.System_String or SpecialType.System_Object
            || Is(type, "System.Uri") || IsStream(type) || Inherits(type, "System.Delegate"))
        {
            return false;
        }

        if (type.GetAttributes().Any(a => Is(a.AttributeClass, "System.Runtime.Serialization.DataContractAttribute")))
        {
            return true;
        }

        return !IsEnumerable(type) && !type.IsAbstract && type is INamedTypeSymbol named
            && named.InstanceConstructors.Any(c => c.Parameters.Length == 0 && c.DeclaredAccessibility == Accessibility.Public);
    }

    public static bool MayBeCollection(ITypeSymbol type) =>
        type.SpecialType != SpecialType.System_String && !(type is IArrayTypeSymbol { ElementType.SpecialType: SpecialType.System_Byte })
        && (type is IArrayTypeSymbol || IsEnumerable(type));

    public static bool IsEnumerable(ITypeSymbol type) =>
        Is(type, "System.Collections.IEnumerable") || type.AllInterfaces.Any(i => Is(i, "System.Collections.IEnumerable"));

    public static bool IsStream(ITypeSymbol type) => Is(type, "System.IO.Stream") || Inherits(type, "System.IO.Stream");

    public static bool IsToken(ITypeSymbol type) => Is(type, "System.Threading.CancellationToken");

    public static bool Inherits(ITypeSymbol type, string metadataName)
    {
        for (var b = type.BaseType; b is not null; b = b.BaseType)
        {
            if (Is(b, metadataName))
            {
                return true;
            }
        }

        return false;
    }

    public static bool Is(ISymbol? symbol, string metadataName) =>
        symbol is INamedTypeSymbol named && named.ContainingNamespace is not null
        && $"{named.ContainingNamespace.ToDisplayString()}.{named.MetadataName}" == metadataName;

    public static AttributeData? Attribute(ISymbol symbol, string metadataName) =>
        symbol.GetAttributes().FirstOrDefault(a => Is(a.AttributeClass, metadataName));

    public static TypedConstant? Named(AttributeData attribute, string name) =>
        attribute.NamedArguments.Where(a => a.Key == name).Select(a => (TypedConstant?)a.Value).FirstOrDefault();

    /// <summary>A type as generated code names it: fully qualified, without nullable reference annotations (the generated file has them off).</summary>
    public static string Display(ITypeSymbol type) => type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);

    /// <summary>An operation's name as part of a C# type name: WCF allows any string ("get-file"), C# does not.</summary>
    public static string TypeName(string operation) =>
        new string(operation.Select(c => char.IsLetterOrDigit(c) || c == '_' ? c : '_').ToArray()) is var name && name.Length > 0 && char.IsDigit(name[0]) ? "_" + name : name;

    public static string Identifier(string name) => SyntaxFacts.GetKeywordKind(name) != SyntaxKind.None ? "@" + name : name;
}
