using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RpcCompare.Fast.Generator.Model;

namespace RpcCompare.Fast.Generator;

/// <summary>
/// WCF's contract rules read from symbols: the part of ContractDescription.GetContract and of
/// RpcCompare.Protobuf's mapping the generated code depends on (operation names, forms, inputs and
/// outputs, and which messages are bare data contracts and which are envelopes). It is a second
/// implementation of rules the runtime reads by reflection, so the runtime compares the two before
/// it uses generated code (GeneratedContracts.Verify) and a contract on which they differ keeps the
/// reflection path. A shape this reader does not handle makes no code at all, with the reason.
/// </summary>
internal static class ContractReader
{
    private const string AsyncSuffix = "Async";

    /// <summary>The contract's model, or the reason it is not generated.</summary>
    public static (ContractModel? Model, string? Skipped) Read(INamedTypeSymbol contract, string generatedName)
    {
        try
        {
            return (ReadOrThrow(contract, generatedName), null);
        }
        catch (NotGeneratedException e)
        {
            return (null, $"{contract.Name}: {e.Message}");
        }
    }

    private static ContractModel ReadOrThrow(INamedTypeSymbol contract, string generatedName)
    {
        if (contract.TypeKind != TypeKind.Interface || Attribute(contract, "System.ServiceModel.ServiceContractAttribute") is not { } serviceContract)
        {
            throw new NotGeneratedException("not an interface with [ServiceContract]");
        }

        if (contract.IsGenericType)
        {
            throw new NotGeneratedException("a generic contract");
        }

        if (Named(serviceContract, "CallbackContract") is { IsNull: false })
        {
            throw new NotGeneratedException("a duplex contract (CallbackContract)");
        }

        var methods = new List<MethodModel>();
        var candidates = new List<(IMethodSymbol Method, MethodModel Model, string Name, bool OneWay)>();
        foreach (var type in new[] { contract }.Concat(contract.AllInterfaces))
        {
            var isContract = Attribute(type, "System.ServiceModel.ServiceContractAttribute") is not null;
            foreach (var member in type.GetMembers().Where(m => !m.IsStatic && m.IsAbstract))
            {
                if (member is not IMethodSymbol { MethodKind: MethodKind.Ordinary } method)
                {
                    throw new NotGeneratedException($"{member.Name} is a {member.Kind.ToString().ToLowerInvariant()}; a contract the generator reads has methods only");
                }

                if (method.IsGenericMethod)
                {
                    throw new NotGeneratedException($"{method.Name} is generic");
                }

                var model = Method(type, method);
                var operation = isContract ? Attribute(method, "System.ServiceModel.OperationContractAttribute") : null;
                if (operation is null || Named(operation, "AsyncPattern") is { Value: true })
                {
                    // Begin/End methods and methods that are no operation: the proxy throws, as the reflection proxy does.
                    methods.Add(model with { Form = Form.NotCalled });
                    if (operation is not null)
                    {
                        candidates.Add((method, model with { Form = Form.NotCalled }, OperationName(method, operation, Form.NotCalled), false));
                    }

                    continue;
                }

                candidates.Add((method, model, OperationName(method, operation, model.Form), Named(operation, "IsOneWay") is { Value: true }));
            }
        }

        var operations = new List<OperationModel>();
        foreach (var group in candidates.GroupBy(c => c.Name, StringComparer.Ordinal))
        {
            var called = group.Where(c => c.Model.Form != Form.NotCalled).ToList();
            if (called.Count == 0)
            {
                throw new NotGeneratedException($"{group.Key} has only the Begin/End form");
            }

            if (called.GroupBy(c => c.Model.Form).Any(f => f.Count() > 1))
            {
                throw new NotGeneratedException($"two methods are operation {group.Key}");
            }

            var index = operations.Count;
            operations.Add(Operation(group.Key, called));
            methods.AddRange(called.Select(c => c.Model with { Operation = index }));
        }

        return new ContractModel(Display(contract), generatedName, operations.ToEquatable(), methods.ToEquatable());
    }

    private static OperationModel Operation(string name, List<(IMethodSymbol Method, MethodModel Model, string Name, bool OneWay)> forms)
    {
        var sync = forms.FirstOrDefault(f => f.Model.Form == Form.Sync).Model;
        var task = forms.FirstOrDefault(f => f.Model.Form == Form.Task).Model;
        var valueTask = forms.FirstOrDefault(f => f.Model.Form == Form.ValueTask).Model;
        var method = forms.OrderBy(f => f.Model.Form).First().Method;
        var symbols = method.Parameters.Where(p => !IsToken(p.Type)).ToList();
        var inputs = symbols.Where(p => p.RefKind != RefKind.Out).ToList();
        var outputs = symbols.Where(p => p.RefKind is RefKind.Out or RefKind.Ref).ToList();
        var returns = ResultType(method);

        foreach (var value in symbols.Select(p => (Name: p.Name, Type: p.Type)).Concat(returns is null ? [] : new[] { (Name: "result", Type: returns) }))
        {
            if (value.Type.SpecialType == SpecialType.System_Object || value.Type.TypeKind is TypeKind.Interface or TypeKind.TypeParameter or TypeKind.Dynamic or TypeKind.Pointer)
            {
                throw new NotGeneratedException($"{value.Name} of {name} is {value.Type.ToDisplayString()}: no concrete type to write");
            }

            if (Attribute(value.Type, "System.ServiceModel.MessageContractAttribute") is not null)
            {
                throw new NotGeneratedException($"{name} has a [MessageContract] message");
            }
        }

        var streamIn = inputs.Any(p => IsStream(p.Type));
        var streamOut = returns is not null && IsStream(returns);
        if (streamIn && (inputs.Count > 1 || outputs.Count > 0 || streamOut))
        {
            throw new NotGeneratedException($"{name} has a Stream beside other values, or both ways");
        }

        if (outputs.Count > 0 && sync is null)
        {
            throw new NotGeneratedException($"{name} has out or ref values but no synchronous form");
        }

        var request = inputs switch
        {
            { Count: 0 } => new MessageModel(Shape.Empty, "global::RpcCompare.Protobuf.Messages.EmptyMessage", default),
            { Count: 1 } when streamIn => new MessageModel(Shape.Chunks, Display(inputs[0].Type), default),
            { Count: 1 } when inputs[0].RefKind == RefKind.None && IsMessageClass(inputs[0].Type) => new MessageModel(Shape.Bare, Display(inputs[0].Type), default),
            _ => new MessageModel(Shape.Envelope, name + "_Request", inputs.Select(p => Field(p.Name, p.Type)).ToEquatable()),
        };
        var resultName = symbols.Any(p => p.Name == "result") ? "return_value" : "result";
        var reply = (returns, outputs.Count) switch
        {
            ({ } stream, _) when streamOut => new MessageModel(Shape.Chunks, Display(stream), default),
            (null, 0) => new MessageModel(Shape.Empty, "global::RpcCompare.Protobuf.Messages.EmptyMessage", default),
            ({ } result, 0) when IsMessageClass(result) => new MessageModel(Shape.Bare, Display(result), default),
            _ => new MessageModel(Shape.Envelope, name + "_Response",
                (returns is null ? [] : new[] { Field(resultName, returns) }).Concat(outputs.Select(p => Field(p.Name, p.Type))).ToEquatable()),
        };
        var serverForm = outputs.Count > 0 ? sync! : task ?? valueTask ?? sync!;
        return new OperationModel(name, forms.Any(f => f.OneWay), request, reply, serverForm, reply.Shape == Shape.Envelope && returns is not null);
    }

    private static MethodModel Method(INamedTypeSymbol declaring, IMethodSymbol method)
    {
        var returns = method.ReturnType;
        var (form, result) = returns switch
        {
            _ when returns.SpecialType == SpecialType.System_Void => (Form.Sync, (ITypeSymbol?)null),
            INamedTypeSymbol named when Is(named, "System.Threading.Tasks.Task") => (Form.Task, null),
            INamedTypeSymbol named when Is(named, "System.Threading.Tasks.ValueTask") => (Form.ValueTask, null),
            INamedTypeSymbol { IsGenericType: true } named when Is(named.ConstructedFrom, "System.Threading.Tasks.Task`1") => (Form.Task, named.TypeArguments[0]),
            INamedTypeSymbol { IsGenericType: true } named when Is(named.ConstructedFrom, "System.Threading.Tasks.ValueTask`1") => (Form.ValueTask, named.TypeArguments[0]),
            INamedTypeSymbol { IsGenericType: true } named when Is(named.ConstructedFrom, "System.Collections.Generic.IAsyncEnumerable`1") =>
                throw new NotGeneratedException($"{method.Name} returns IAsyncEnumerable, which the fast binding does not carry yet"),
            _ => (Form.Sync, returns),
        };
        if (method.Parameters.Any(p => p.RefKind is RefKind.In or RefKind.RefReadOnlyParameter))
        {
            throw new NotGeneratedException($"{method.Name} has an 'in' or 'ref readonly' parameter");
        }

        var parameters = method.Parameters.Select(p => new ParameterModel(
            Identifier(p.Name),
            Display(p.Type),
            IsToken(p.Type) ? Passing.CancellationToken : p.RefKind switch { RefKind.Out => Passing.Out, RefKind.Ref => Passing.Ref, _ => Passing.In }));
        return new MethodModel(Display(declaring), Identifier(method.Name), Display(returns), form, result is null ? null : Display(result), parameters.ToEquatable(), -1);
    }

    /// <summary>WCF's operation name: [OperationContract(Name)], else the method's, with Async removed from a Task or ValueTask method and Begin from a Begin method.</summary>
    private static string OperationName(IMethodSymbol method, AttributeData operation, Form form)
    {
        if (Named(operation, "Name") is { Value: string explicitName } && explicitName.Length > 0)
        {
            return explicitName;
        }

        var name = method.Name;
        if (form == Form.NotCalled)
        {
            return name.StartsWith("Begin", StringComparison.Ordinal) ? name.Substring("Begin".Length) : name;
        }

        return form is Form.Task or Form.ValueTask && name.EndsWith(AsyncSuffix, StringComparison.Ordinal) && name.Length > AsyncSuffix.Length
            ? name.Substring(0, name.Length - AsyncSuffix.Length)
            : name;
    }

    private static ITypeSymbol? ResultType(IMethodSymbol method) =>
        method.ReturnType switch
        {
            { SpecialType: SpecialType.System_Void } => null,
            INamedTypeSymbol named when Is(named, "System.Threading.Tasks.Task") || Is(named, "System.Threading.Tasks.ValueTask") => null,
            INamedTypeSymbol { IsGenericType: true } named when Is(named.ConstructedFrom, "System.Threading.Tasks.Task`1") || Is(named.ConstructedFrom, "System.Threading.Tasks.ValueTask`1") => named.TypeArguments[0],
            var other => other,
        };

    private static FieldModel Field(string name, ITypeSymbol type) => new(Identifier(name), Display(type), MayBeCollection(type));

    /// <summary>
    /// A data contract that is a message by itself (RpcCompare.Description's DataContractLayout.IsDataType,
    /// classes only): [DataContract], or a creatable class that is no collection.
    /// </summary>
    private static bool IsMessageClass(ITypeSymbol type)
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

    private static bool MayBeCollection(ITypeSymbol type) =>
        type.SpecialType != SpecialType.System_String && !(type is IArrayTypeSymbol { ElementType.SpecialType: SpecialType.System_Byte })
        && (type is IArrayTypeSymbol || IsEnumerable(type));

    private static bool IsEnumerable(ITypeSymbol type) =>
        Is(type, "System.Collections.IEnumerable") || type.AllInterfaces.Any(i => Is(i, "System.Collections.IEnumerable"));

    private static bool IsStream(ITypeSymbol type) => Is(type, "System.IO.Stream") || Inherits(type, "System.IO.Stream");

    private static bool IsToken(ITypeSymbol type) => Is(type, "System.Threading.CancellationToken");

    private static bool Inherits(ITypeSymbol type, string metadataName)
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

    private static bool Is(ISymbol? symbol, string metadataName) =>
        symbol is INamedTypeSymbol named && named.ContainingNamespace is not null
        && $"{named.ContainingNamespace.ToDisplayString()}.{named.MetadataName}" == metadataName;

    private static AttributeData? Attribute(ISymbol symbol, string metadataName) =>
        symbol.GetAttributes().FirstOrDefault(a => Is(a.AttributeClass, metadataName));

    private static TypedConstant? Named(AttributeData attribute, string name) =>
        attribute.NamedArguments.Where(a => a.Key == name).Select(a => (TypedConstant?)a.Value).FirstOrDefault();

    /// <summary>A type as generated code names it: fully qualified, without nullable reference annotations (the generated file has them off).</summary>
    private static string Display(ITypeSymbol type) => type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);

    private static string Identifier(string name) => SyntaxFacts.GetKeywordKind(name) != SyntaxKind.None ? "@" + name : name;

    private sealed class NotGeneratedException(string message) : Exception(message);
}
