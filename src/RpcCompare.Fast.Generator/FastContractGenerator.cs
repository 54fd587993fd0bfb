using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RpcCompare.Fast.Generator.Model;

namespace RpcCompare.Fast.Generator;

/// <summary>
/// Generates the fast binding's code for the contracts a partial class lists in
/// <c>[FastContracts(typeof(IContract), ...)]</c> (the JsonSerializerContext pattern: the contracts
/// usually live in a referenced assembly, which an attribute scan of this compilation cannot see).
/// </summary>
[Generator(LanguageNames.CSharp)]
public sealed class FastContractGenerator : IIncrementalGenerator
{
    public const string AttributeName = "RpcCompare.Bindings.Fast.FastContractsAttribute";

    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        var sets = context.SyntaxProvider.ForAttributeWithMetadataName(
            AttributeName,
            static (node, _) => node is ClassDeclarationSyntax,
            static (attributed, _) => Read(attributed));
        context.RegisterSourceOutput(sets, static (output, set) =>
        {
            if (set is not null)
            {
                output.AddSource($"{(set.Namespace.Length > 0 ? set.Namespace + "." : "")}{set.ClassName}.FastContracts.g.cs", ContractWriter.Write(set));
            }
        });
    }

    /// <summary>The set's model: only strings, numbers and equatable arrays, so an unchanged set is cached.</summary>
    private static ContractSet? Read(GeneratorAttributeSyntaxContext attributed)
    {
        if (attributed.TargetSymbol is not INamedTypeSymbol { ContainingType: null } set)
        {
            // A nested class would need its containers declared partial too: not supported, and no code.
            return null;
        }

        var contracts = new List<ContractModel>();
        var skipped = new List<string>();
        var names = new HashSet<string>();
        foreach (var type in attributed.Attributes.SelectMany(a => a.ConstructorArguments).SelectMany(c => c.Kind == TypedConstantKind.Array ? c.Values : [c]))
        {
            if (type.Value is not INamedTypeSymbol contract)
            {
                continue;
            }

            var name = contract.Name + "_Fast";
            for (var i = 2; !names.Add(name); i++)
            {
                name = $"{contract.Name}_Fast{i}";
            }

            var (model, reason) = ContractReader.Read(contract, name);
            if (model is not null)
            {
                contracts.Add(model);
            }
            else
            {
                skipped.Add(reason!);
            }
        }

        return new ContractSet(
            set.ContainingNamespace.IsGlobalNamespace ? "" : set.ContainingNamespace.ToDisplayString(),
            set.Name,
            contracts.ToEquatable(),
            skipped.ToEquatable());
    }
}
