using Microsoft.CodeAnalysis;

namespace RpcCompare.Fast.Generator.Tests;

public sealed class FastContractGeneratorTests
{
    private const string CorpusSet = """
        using RpcCompare.ContractCorpus;

        namespace Team.Host;

        [RpcCompare.Bindings.Fast.FastContracts(typeof(ICalculator), typeof(IParameterShapes), typeof(IValueTaskForms), typeof(IShapes),
            typeof(IOrderService), typeof(IRenamedOperations), typeof(IValueTaskNames), typeof(ISyncAndTaskForms), typeof(IStreamedFiles), typeof(IDataShapes))]
        internal sealed partial class Contracts
        {
        }
        """;

    [Fact]
    public void TheCorpus_GeneratesCode_ThatCompilesWithoutAWarning()
    {
        var (output, generated) = GeneratorRun.Run(GeneratorRun.Compile(CorpusSet));

        Assert.Empty(output.GetDiagnostics().Where(d => d.Severity >= DiagnosticSeverity.Warning));
        Assert.DoesNotContain("Not generated", generated, StringComparison.Ordinal);
        Assert.Equal(
            ["ICalculator", "IParameterShapes", "IValueTaskForms", "IShapes", "IOrderService", "IRenamedOperations", "IValueTaskNames", "ISyncAndTaskForms", "IStreamedFiles", "IDataShapes"],
            output.GetTypeByMetadataName("Team.Host.Contracts")!.GetTypeMembers().Select(t => t.Name.Replace("_Fast", "", StringComparison.Ordinal)));
    }

    [Fact]
    public void EveryGeneratedContract_IsAnnouncedToTheBinding()
    {
        var (output, _) = GeneratorRun.Run(GeneratorRun.Compile(CorpusSet));

        var announced = output.Assembly.GetAttributes()
            .Where(a => a.AttributeClass?.Name == "GeneratedFastContractAttribute")
            .Select(a => ((INamedTypeSymbol)a.ConstructorArguments[0].Value!).Name + " -> " + ((INamedTypeSymbol)a.ConstructorArguments[1].Value!).Name);

        Assert.Contains("ICalculator -> ICalculator_Fast", announced);
        Assert.Equal(10, announced.Count());
    }

    [Fact]
    public void AnUnrelatedEdit_LeavesTheOutputCached()
    {
        var compilation = GeneratorRun.Compile(CorpusSet);
        var driver = GeneratorRun.Driver(trackSteps: true).RunGenerators(compilation);

        var edited = compilation.AddSyntaxTrees(Microsoft.CodeAnalysis.CSharp.CSharpSyntaxTree.ParseText("namespace Team.Host; internal static class Unrelated { }"));
        var result = driver.RunGenerators(edited).GetRunResult().Results.Single();

        var reasons = result.TrackedOutputSteps.SelectMany(s => s.Value).SelectMany(s => s.Outputs).Select(o => o.Reason).ToList();
        Assert.NotEmpty(reasons);
        Assert.All(reasons, r => Assert.True(r is IncrementalStepRunReason.Cached or IncrementalStepRunReason.Unchanged, $"an output step ran again: {r}"));
    }

    [Fact]
    public void ShapesTheGeneratorDoesNotHandle_AreSkipped_WithTheirReason()
    {
        const string source = """
            using System.Collections.Generic;
            using System.ServiceModel;
            using RpcCompare.ContractCorpus;

            namespace Team.Host;

            [ServiceContract]
            public interface IWithProperty { [OperationContract] int Get(); int Count { get; } }

            [ServiceContract]
            public interface IGenericMethod { [OperationContract] T Echo<T>(T value); }

            [ServiceContract]
            public interface IInParameter { [OperationContract] int Length(in string text); }

            [ServiceContract]
            public interface IObjectValue { [OperationContract] void Take(object value); }

            [ServiceContract]
            public interface IStreamOfMessages { [OperationContract] IAsyncEnumerable<Order> OrdersAsync(); }

            public interface INoContract { void Run(); }

            [RpcCompare.Bindings.Fast.FastContracts(typeof(IWithProperty), typeof(IGenericMethod), typeof(IInParameter), typeof(IObjectValue), typeof(IStreamOfMessages),
                typeof(INoContract), typeof(IAsyncPatternWithOut), typeof(IChat))]
            internal sealed partial class Contracts { }
            """;

        var (output, generated) = GeneratorRun.Run(GeneratorRun.Compile(source));

        Assert.Empty(output.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        Assert.Equal(
            [
                "IWithProperty: Count is a property; a contract the generator reads has methods only",
                "IGenericMethod: Echo is generic",
                "IInParameter: Length has an 'in' or 'ref readonly' parameter",
                "IObjectValue: value of Take is object: no concrete type to write",
                "IStreamOfMessages: OrdersAsync returns IAsyncEnumerable, which the fast binding does not carry yet",
                "INoContract: not an interface with [ServiceContract]",
                "IAsyncPatternWithOut: Split has only the Begin/End form",
                "IChat: a duplex contract (CallbackContract)",
            ],
            SkipReasons(generated));
        Assert.DoesNotContain("GeneratedFastContractAttribute(", generated, StringComparison.Ordinal);
    }

    [Fact]
    public void ParametersNamedAsTheGeneratedCodesOwnNames_StillCompile()
    {
        const string source = """
            using System.ServiceModel;
            using System.Threading.Tasks;

            namespace Team.Host;

            [ServiceContract]
            public interface IAwkwardNames
            {
                [OperationContract]
                int Send(int reply, int _client, int result, int request, int service, int cancellationToken, out int reply_, ref string @class);

                [OperationContract]
                Task<int> EchoAsync(int reply, int _client, int result);
            }

            [RpcCompare.Bindings.Fast.FastContracts(typeof(IAwkwardNames))]
            internal sealed partial class Contracts { }
            """;

        var (output, generated) = GeneratorRun.Run(GeneratorRun.Compile(source));

        Assert.Empty(output.GetDiagnostics().Where(d => d.Severity >= DiagnosticSeverity.Warning));
        Assert.Contains("IAwkwardNames_Fast", generated, StringComparison.Ordinal);
    }

    [Fact]
    public void LegalContractsThatAreAwkwardForCSharp_StillCompile()
    {
        const string source = """
            using System.ServiceModel;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Team.Host;

            [ServiceContract]
            public interface IFirst { [OperationContract] int Get(); }

            [ServiceContract]
            public interface ISecond { [OperationContract(Name = "GetSecond")] int Get(); }

            // Get is ambiguous on IBoth itself: each server call goes through the interface that declares it.
            [ServiceContract]
            public interface IBoth : IFirst, ISecond { }

            [ServiceContract]
            public interface IOddNames
            {
                [OperationContract(Name = "get-file \"v2\"")]
                byte[] Get(string path);

                [OperationContract]
                int Format(int ToString, int Equals, int GetHashCode);

                [OperationContract]
                void Keep(ref CancellationToken token);
            }

            [RpcCompare.Bindings.Fast.FastContracts(typeof(IBoth))]
            internal sealed partial class Contracts { }

            // A second part of the same class listing more: one file, each contract once.
            [RpcCompare.Bindings.Fast.FastContracts(typeof(IOddNames), typeof(IBoth))]
            internal sealed partial class Contracts { }
            """;

        var (output, generated) = GeneratorRun.Run(GeneratorRun.Compile(source));

        Assert.Empty(output.GetDiagnostics().Where(d => d.Severity >= DiagnosticSeverity.Warning));
        Assert.DoesNotContain("Not generated", generated, StringComparison.Ordinal);
        Assert.Equal(["IBoth_Fast", "IOddNames_Fast"], output.GetTypeByMetadataName("Team.Host.Contracts")!.GetTypeMembers().Select(t => t.Name).Order());
        Assert.Contains("((global::Team.Host.ISecond)service).Get()", generated, StringComparison.Ordinal);
    }

    [Fact]
    public void ContractsItCannotWriteCorrectly_AreSkipped_WithTheirReason()
    {
        const string source = """
            using System;
            using System.ServiceModel;
            using System.Threading.Tasks;

            namespace Team.Host;

            [ServiceContract]
            public interface IFormsDiffer { [OperationContract] int Echo(string text); [OperationContract] ValueTask<int> EchoAsync(string message); }

            [ServiceContract]
            public interface ISpan { [OperationContract] int Sum(ReadOnlySpan<int> values); }

            [ServiceContract]
            public interface IStaticAbstract { [OperationContract] int Get(); static abstract IStaticAbstract Create(); }

            [ServiceContract]
            public interface IResultTwice { [OperationContract] int Split(int result, out int return_value); }

            [RpcCompare.Bindings.Fast.FastContracts(typeof(IFormsDiffer), typeof(ISpan), typeof(IStaticAbstract), typeof(IResultTwice))]
            internal sealed partial class Contracts { }
            """;

        var (output, generated) = GeneratorRun.Run(GeneratorRun.Compile(source));

        Assert.Empty(output.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        Assert.Equal(
            [
                "IFormsDiffer: the forms of Echo differ in their parameters' names, types or directions, or in their result",
                "ISpan: Sum takes or returns by reference or a ref struct (a Span), which no message can hold",
                "IStaticAbstract: Create is a static abstract member, which a proxy class cannot implement",
                "IResultTwice: Split's reply would have two fields named return_value (a parameter has the result's name)",
            ],
            SkipReasons(generated));
    }

    [Fact]
    public void ANestedClass_GetsNoCode()
    {
        const string source = """
            namespace Team.Host;

            internal static partial class Outer
            {
                [RpcCompare.Bindings.Fast.FastContracts(typeof(RpcCompare.ContractCorpus.ICalculator))]
                internal sealed partial class Contracts { }
            }
            """;

        var (_, generated) = GeneratorRun.Run(GeneratorRun.Compile(source));

        Assert.Empty(generated);
    }

    /// <summary>The reasons the generated file gives, one per contract it skipped, in order.</summary>
    private static IEnumerable<string> SkipReasons(string generated) =>
        generated.Split('\n').Where(l => l.StartsWith("// Not generated", StringComparison.Ordinal)).Select(l => l[(l.IndexOf("): ", StringComparison.Ordinal) + 3)..]);
}
