using System.Runtime.Loader;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.ContractAssemblies;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.ContractAssemblies;

/// <summary>
/// A team's assembly loaded by path (--contracts): contracts paired with their implementations,
/// loaded once, in a context of its own that shares the process's own assemblies; and a clear
/// error, naming the file and what to do, for each way a path can be wrong.
/// </summary>
public sealed class ContractAssemblyTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void TheSample_PairsEachContractWithItsImplementation_ByFullName()
    {
        var assembly = ContractAssembly.Load(SampleServices.AssemblyPath);

        Assert.Equal(
            [("ICalculator", "Calculator"), ("IOrderService", "OrderService")],
            assembly.Services.Select(s => (s.Contract.Name, s.Implementation.Name)));
        Assert.Empty(assembly.NotServed);
        Assert.Equal("RpcCompare.Samples.Services.dll", assembly.Name);
    }

    [Fact]
    public void TheAssembly_LivesInAContextOfItsOwn_ButSharesTheProcesssServiceModel()
    {
        var assembly = ContractAssembly.Load(SampleServices.AssemblyPath);

        Assert.Equal("contracts: RpcCompare.Samples.Services.dll", AssemblyLoadContext.GetLoadContext(assembly.Assembly)!.Name);
        // The attribute the contract model reads must be the process's own type, or no contract would be found.
        Assert.True(assembly.Services[0].Contract.IsDefined(typeof(System.ServiceModel.ServiceContractAttribute), inherit: false));
    }

    [Fact]
    public void ThePath_IsLoadedOnce_WhateverItsSpelling()
    {
        var relative = Path.GetRelativePath(Environment.CurrentDirectory, SampleServices.AssemblyPath);

        Assert.Same(ContractAssembly.Load(SampleServices.AssemblyPath), ContractAssembly.Load(relative));
    }

    [Fact]
    public void ItsServices_AreServedFromAContainer()
    {
        var assembly = ContractAssembly.Load(SampleServices.AssemblyPath);
        using var services = new ServiceCollection().AddRpcServices(assembly).BuildServiceProvider();

        Assert.Equal(assembly.Services, services.GetServices<RpcServiceDescriptor>());
        Assert.IsType(assembly.Services[0].Implementation, services.GetRequiredService(assembly.Services[0].Contract));
    }

    [Fact]
    public void AMissingFile_IsRefused_SayingWhichFileToGive()
    {
        var path = _directory.PathFor("Team.Services.dll");

        var error = Assert.Throws<ContractAssemblyException>(() => ContractAssembly.Load(path));

        Assert.Equal($"Contract assembly '{path}': there is no such file. Give the path of the .dll your service project builds (bin/Release/net10.0/Team.Services.dll) or publishes.", error.Message);
        Assert.Equal(path, error.AssemblyPath);
    }

    [Fact]
    public void AFileThatIsNoAssembly_IsRefused()
    {
        var path = _directory.PathFor("notes.dll");
        File.WriteAllText(path, "not an assembly");

        var error = Assert.Throws<ContractAssemblyException>(() => ContractAssembly.Load(path));

        Assert.StartsWith($"Contract assembly '{path}': it is not a .NET assembly (", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnAssemblyWithoutContracts_IsRefused()
    {
        // The workload library itself: a real assembly, with no [ServiceContract] in it.
        var path = Path.Combine(Path.GetDirectoryName(SampleServices.AssemblyPath)!, "RpcCompare.Workloads.dll");

        var error = Assert.Throws<ContractAssemblyException>(() => ContractAssembly.Load(path));

        Assert.Equal($"Contract assembly '{path}': it declares no public interface with [ServiceContract] (System.ServiceModel.ServiceContractAttribute).", error.Message);
    }

    [Fact]
    public void AnInheritedContract_IsServedByTheClassOfTheDerivedOne_AndAContractWithoutAClassIsListed()
    {
        // The test corpus: IShapes extends IBaseShapes, and IChat (a duplex contract) has no class in it.
        var assembly = ContractAssembly.Load(typeof(ContractCorpus.ICalculator).Assembly.Location);
        var served = assembly.Services.Select(s => (s.Contract.Name, s.Implementation.Name)).ToList();

        Assert.Contains(("IBaseShapes", "Shapes"), served);
        Assert.Contains(("IShapes", "Shapes"), served);
        Assert.Contains("RpcCompare.ContractCorpus.IChat: no public class in RpcCompare.ContractCorpus.dll implements it, so it is not served", assembly.NotServed);
    }
}
