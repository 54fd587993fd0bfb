using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using RpcCompare.Fast.Generator.Model;
using static RpcCompare.Fast.Generator.Symbols;

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
        var candidates = new List<(IMethodSymbol Method, MethodModel Model, string Name)>();
        foreach (var type in new[] { contract }.Concat(contract.AllInterfaces))
        {
            var isContract = Attribute(type, "System.ServiceModel.ServiceContractAttribute") is not null;
            foreach (var member in type.GetMembers().Where(m => m.IsAbstract))
            {
                if (member.IsStatic)
                {
                    throw new NotGeneratedException($"{member.Name} is a static abstract member, which a proxy class cannot implement");
                }

                if (member is not IMethodSymbol { MethodKind: MethodKind.Ordinary } method)
                {
                    throw new NotGeneratedException($"{member.Name} is a {member.Kind.ToString().ToLowerInvariant()}; a contract the generator reads has methods only");
                }

                if (method.IsGenericMethod)
                {
                    throw new NotGeneratedException($"{method.Name} is generic");
                }

                if (method.ReturnsByRef || method.ReturnsByRefReadonly || method.ReturnType.IsRefLikeType || method.Parameters.Any(p => p.Type.IsRefLikeType))
                {
                    throw new NotGeneratedException($"{method.Name} takes or returns by reference or a ref struct (a Span), which no message can hold");
                }

                var model = Method(type, method);
                var operation = isContract ? Attribute(method, "System.ServiceModel.OperationContractAttribute") : null;
                if (operation is null || Named(operation, "AsyncPattern") is { Value: true })
                {
                    // Begin/End methods and methods that are no operation: the proxy throws, as the reflection proxy does.
                    methods.Add(model with { Form = Form.NotCalled });
                    if (operation is not null)
                    {
                        candidates.Add((method, model with { Form = Form.NotCalled }, OperationName(method, operation, Form.NotCalled)));
                    }

                    continue;
                }

                candidates.Add((method, model, OperationName(method, operation, model.Form)));
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

            if (called.Select(c => Signature(c.Model)).Distinct().Count() > 1)
            {
                // WCF merges forms by types alone; a form whose names differ would read the wrong fields.
                throw new NotGeneratedException($"the forms of {group.Key} differ in their parameters' names, types or directions, or in their result");
            }

            var index = operations.Count;
            operations.Add(Operation(group.Key, called));
            methods.AddRange(called.Select(c => c.Model with { Operation = index }));
        }

        return new ContractModel(Display(contract), generatedName, operations.ToEquatable(), methods.ToEquatable());
    }

    private static OperationModel Operation(string name, List<(IMethodSymbol Method, MethodModel Model, string Name)> forms)
    {
        var sync = forms.FirstOrDefault(f => f.Model.Form == Form.Sync).Model;
        var task = forms.FirstOrDefault(f => f.Model.Form == Form.Task).Model;
        var valueTask = forms.FirstOrDefault(f => f.Model.Form == Form.ValueTask).Model;
        var method = forms.OrderBy(f => f.Model.Form).First().Method;
        var symbols = method.Parameters.Where(p => !IsToken(p.Type) || p.RefKind != RefKind.None).ToList();
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
            _ => new MessageModel(Shape.Envelope, TypeName(name) + "_Request", inputs.Select(p => Field(p.Name, p.Type)).ToEquatable()),
        };
        var resultName = symbols.Any(p => p.Name == "result") ? "return_value" : "result";
        var reply = (returns, outputs.Count) switch
        {
            ({ } stream, _) when streamOut => new MessageModel(Shape.Chunks, Display(stream), default),
            (null, 0) => new MessageModel(Shape.Empty, "global::RpcCompare.Protobuf.Messages.EmptyMessage", default),
            ({ } result, 0) when IsMessageClass(result) => new MessageModel(Shape.Bare, Display(result), default),
            _ => new MessageModel(Shape.Envelope, TypeName(name) + "_Response",
                (returns is null ? [] : new[] { Field(resultName, returns) }).Concat(outputs.Select(p => Field(p.Name, p.Type))).ToEquatable()),
        };
        if (reply.Fields.GroupBy(f => f.Name).Any(g => g.Count() > 1))
        {
            throw new NotGeneratedException($"{name}'s reply would have two fields named {resultName} (a parameter has the result's name)");
        }

        var serverForm = outputs.Count > 0 ? sync! : task ?? valueTask ?? sync!;
        return new OperationModel(name, request, reply, serverForm, reply.Shape == Shape.Envelope && returns is not null);
    }

    /// <summary>What every form of one operation must share: its values in order (name, type, direction) and its result.</summary>
    private static string Signature(MethodModel method) =>
        string.Join(",", method.Parameters.Where(p => p.Passing != Passing.CancellationToken).Select(p => $"{p.Passing} {p.Type} {p.Name}")) + " -> " + (method.Result ?? "void");

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
            IsToken(p.Type) && p.RefKind == RefKind.None ? Passing.CancellationToken : p.RefKind switch { RefKind.Out => Passing.Out, RefKind.Ref => Passing.Ref, _ => Passing.In }));
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

    private sealed class NotGeneratedException(string message) : Exception(message);
}
