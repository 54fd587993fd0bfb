using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RpcCompare.Fast.Generator.Tests;

/// <summary>
/// One compilation of test source against the framework, the fast binding and the contract corpus,
/// with the generator run on it as the compiler runs it, every warning wave on (a consumer's build may have them).
/// </summary>
internal static class GeneratorRun
{
    private static readonly CSharpParseOptions Parse = new(LanguageVersion.Latest);

    private static readonly Lazy<ImmutableArray<MetadataReference>> References = new(() =>
    {
        // The test's own dependencies, loaded so their paths are known: the binding and the corpus.
        _ = typeof(RpcCompare.Bindings.Fast.FastContractsAttribute);
        _ = typeof(RpcCompare.ContractCorpus.ICalculator);
        var platform = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator);
        var local = Directory.GetFiles(AppContext.BaseDirectory, "*.dll");
        return [.. platform.Concat(local).DistinctBy(Path.GetFileName).Select(p => MetadataReference.CreateFromFile(p))];
    });

    public static CSharpCompilation Compile(params string[] sources) =>
        CSharpCompilation.Create(
            "Team.Host",
            sources.Select(s => CSharpSyntaxTree.ParseText(s, Parse)),
            References.Value,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable, warningLevel: 9999));

    public static GeneratorDriver Driver(bool trackSteps = false) =>
        CSharpGeneratorDriver.Create(
            [new FastContractGenerator().AsSourceGenerator()],
            parseOptions: Parse,
            driverOptions: new GeneratorDriverOptions(IncrementalGeneratorOutputKind.None, trackIncrementalGeneratorSteps: trackSteps));

    /// <summary>Runs the generator: the compilation with its output added, and the text it generated.</summary>
    public static (Compilation Output, string Generated) Run(CSharpCompilation compilation)
    {
        Driver().RunGeneratorsAndUpdateCompilation(compilation, out var output, out var generatorDiagnostics);
        Assert.Empty(generatorDiagnostics);
        return (output, string.Concat(output.SyntaxTrees.Skip(compilation.SyntaxTrees.Length).Select(t => t.ToString())));
    }
}
