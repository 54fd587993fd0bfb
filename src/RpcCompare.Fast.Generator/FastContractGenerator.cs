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

        // A partial class may carry [FastContracts] on several of its parts, and each part is a node of its own
        // here: the first such part speaks for the class (every part's attributes, read from the symbol), the others
        // add nothing, so the class gets one file and each contract one generated class.
        var attributedParts = set.DeclaringSyntaxReferences
            .Select(r => r.GetSyntax())
            .Where(n => n is ClassDeclarationSyntax c && c.AttributeLists.SelectMany(l => l.Attributes).Any(a => a.Name.ToString().Contains("FastContracts")));
        if (attributedParts.FirstOrDefault() is { } first && first != attributed.TargetNode)
        {
            return null;
        }

        var contracts = new List<ContractModel>();
        var skipped = new List<string>();
        var names = new HashSet<string>();
        var listed = set.GetAttributes()
            .Where(a => a.AttributeClass?.ToDisplayString() == AttributeName)
            .SelectMany(a => a.ConstructorArguments)
            .SelectMany(c => c.Kind == TypedConstantKind.Array ? c.Values : [c])
            .Select(c => c.Value)
            .OfType<INamedTypeSymbol>()
            .Distinct<INamedTypeSymbol>(SymbolEqualityComparer.Default);
        foreach (var contract in listed)
        {
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
