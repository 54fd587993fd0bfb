using RpcCompare.Bindings;
using RpcCompare.Bindings.ContractAssemblies;
using RpcCompare.Cli;
using RpcCompare.Client;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

public sealed class HostProcessTests
{
    [Fact]
    public async Task Host_ServesEveryOfferedBinding_CliGetsSameAnswers_AndSigtermCleansUp()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        var socketDirectory = directory.PathFor("sockets");
        await using var host = HostProcess.Start("--endpoints-file", endpointsPath, "--socket-dir", socketDirectory);

        var endpoints = await host.WaitForEndpointsAsync(endpointsPath);

        Assert.Equal(BindingNames.All, endpoints.Keys);
        foreach (var binding in BindingNames.All.Where(b => b != BindingNames.InProc))
        {
            await host.WaitForOutputAsync($"Binding {binding} listening on {endpoints[binding]}");
        }

        Assert.All([endpoints[BindingNames.WcfNetTcp], endpoints[BindingNames.WcfHttp], endpoints[BindingNames.GrpcTcp], endpoints[BindingNames.FastTcp]], address => Assert.Contains("://127.0.0.1:", address, StringComparison.Ordinal));
        if (!OperatingSystem.IsWindows())
        {
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(socketDirectory));
        }

        // Each call with what its answer must contain (output, or the error for a refusal), so
        // bindings agreeing on a wrong answer still fail.
        (string[] Call, int ExitCode, string Expected)[] calls =
        [
            (["Ping"], RpccCommands.Ok, "{}"),
            (["ReadDirectory", "--path", "files"], RpccCommands.Ok, "\"Name\": \"entry-00000.txt\""),
            (["WriteAt", "--repeat", "2"], RpccCommands.Ok, "\"BytesWritten\": 200"),
            (["Increment", "--value", "41"], RpccCommands.Ok, "\"Value\": 42"),
            (["TakePoint", "--x", "1"], RpccCommands.Ok, "{}"),
            (["EchoBytes", "--size", "100000"], RpccCommands.Ok, "100000"),
            (["SendRecords", "--size", "1000"], RpccCommands.Ok, "\"Length\": 250"), // 1,000 bytes of 4-byte records
            (["SendString", "--text", "héllo"], RpccCommands.Ok, "\"Length\": 5"),
            (["ReadDirectory", "--path", "../etc"], RpccCommands.CallFailed, "error: PathRefused: Path '../etc' refused: '..' segments are not accepted."),
        ];
        foreach (var (call, exitCode, expected) in calls)
        {
            var answers = new List<(int ExitCode, string Output, string Error)>();
            foreach (var binding in endpoints.Keys)
            {
                answers.Add(await Rpcc.RunAsync(["call", "--binding", binding, "--endpoints", endpointsPath, .. call]));
            }

            Assert.Equal(exitCode, answers[0].ExitCode);
            Assert.Contains(expected, exitCode == RpccCommands.Ok ? answers[0].Output : answers[0].Error, StringComparison.Ordinal);
            Assert.All(answers, answer => Assert.Equal(answers[0], answer));
        }

        // Streams: every framework binding moves them; the pipes baseline says it does not carry them.
        foreach (var binding in endpoints.Keys)
        {
            var (code, output, error) = await Rpcc.RunAsync(["call", "--binding", binding, "--endpoints", endpointsPath, "ReadPattern", "--size", "200000"]);
            if (binding == BindingNames.Pipes)
            {
                // Refused before any call is made, as for any shape a binding does not carry.
                Assert.Equal(RpccCommands.UsageError, code);
                Assert.Contains("binding pipes cannot carry contract rpccompare.v1.FileTransferService", error, StringComparison.Ordinal);
                continue;
            }

            Assert.True(code == RpccCommands.Ok, $"{binding}: {error}");
            Assert.Contains("\"Length\": 200000", output, StringComparison.Ordinal);
            Assert.Contains("\"Length\": 300000", (await Rpcc.RunAsync(["call", "--binding", binding, "--endpoints", endpointsPath, "Count", "--size", "300000"])).Output, StringComparison.Ordinal);
        }

        foreach (var binding in new[] { BindingNames.GrpcTcp, BindingNames.GrpcUds })
        {
            Assert.Equal((RpccCommands.Ok, "SERVING\n", ""), await Rpcc.RunAsync(["health", "-b", binding, "-e", endpointsPath]));
            Assert.Equal((RpccCommands.Ok, "SERVING\n", ""), await Rpcc.RunAsync(["health", "-b", binding, "-e", endpointsPath, "--service", "rpccompare.v1.FileService"]));
        }

        var unknownService = await Rpcc.RunAsync(["health", "-b", BindingNames.GrpcTcp, "-e", endpointsPath, "--service", "no.such.Service"]);
        Assert.Equal(RpccCommands.CallFailed, unknownService.ExitCode);
        Assert.Contains("no.such.Service", unknownService.Error, StringComparison.Ordinal);
        var noHealthService = await Rpcc.RunAsync(["health", "-b", BindingNames.WcfHttp, "-e", endpointsPath]);
        Assert.Equal(RpccCommands.UsageError, noHealthService.ExitCode);
        Assert.Contains("no standard health service", noHealthService.Error, StringComparison.Ordinal);

        var refused = await Rpcc.RunAsync(["call", "-b", BindingNames.Pipes, "-e", endpointsPath, "ReadDirectory", "--path", "/etc"]);
        Assert.Equal((RpccCommands.CallFailed, ""), (refused.ExitCode, refused.Output));
        Assert.StartsWith("error: PathRefused:", refused.Error, StringComparison.Ordinal);

        var dataRoot = endpoints[BindingNames.InProc];
        Assert.Equal(0, await host.TerminateAsync());
        Assert.False(File.Exists(endpointsPath), "endpoints file left behind");
        Assert.False(Directory.Exists(socketDirectory), "socket directory left behind");
        Assert.False(Directory.Exists(dataRoot), "temporary data root left behind");
    }

    [Fact]
    public async Task Host_WithChosenBindingsAndDataRoot_ServesOnlyThoseAndKeepsTheRoot()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        var dataRoot = directory.PathFor("data");
        await using var host = HostProcess.Start("--bindings", "pipes", "--endpoints-file", endpointsPath, "--data-root", dataRoot,
            "--pipe-path", directory.PathFor("p.sock"));

        var endpoints = await host.WaitForEndpointsAsync(endpointsPath);
        var answer = await Rpcc.RunAsync(["call", "-b", "pipes", "-a", endpoints["pipes"], "ReadDirectory"]);

        Assert.Equal(["inproc", "pipes"], endpoints.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(directory.PathFor("p.sock"), endpoints["pipes"]);
        Assert.Equal(0, answer.ExitCode);
        Assert.Contains("data.bin", answer.Output, StringComparison.Ordinal);
        Assert.Equal(0, await host.TerminateAsync());
        Assert.True(File.Exists(Path.Combine(dataRoot, "data.bin")), "a configured data root must never be deleted");
        Assert.False(File.Exists(directory.PathFor("p.sock")));
    }

    [Fact]
    public async Task Host_WithAdvertisedHost_NamesItForTcpBindingsOnly_AndClientsReachIt()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        await using var host = HostProcess.Start("--bindings", "wcf-nettcp,grpc-tcp,grpc-uds", "--endpoints-file", endpointsPath,
            "--socket-dir", directory.PathFor("sockets"), "--advertised-host", "localhost");

        var endpoints = await host.WaitForEndpointsAsync(endpointsPath);

        Assert.Matches(@"^net\.tcp://localhost:\d+$", endpoints[BindingNames.WcfNetTcp]);
        Assert.Matches(@"^http://localhost:\d+$", endpoints[BindingNames.GrpcTcp]);
        Assert.Equal(directory.PathFor("sockets/grpc.sock"), endpoints[BindingNames.GrpcUds]);
        foreach (var binding in new[] { BindingNames.WcfNetTcp, BindingNames.GrpcTcp })
        {
            var answer = await Rpcc.RunAsync(["call", "-b", binding, "-e", endpointsPath, "Ping"]);
            Assert.Equal((0, ""), (answer.ExitCode, answer.Error));
        }

        Assert.Equal(0, await host.TerminateAsync());
    }

    [Fact]
    public async Task Host_WithATeamsAssembly_ServesItsContracts_ToClientsOfTheSameInterfaces()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        await using var host = HostProcess.Start("--services", "none", "--contracts", SampleServices.AssemblyPath, "--bindings", "wcf-uds,grpc-uds,fast-uds",
            "--endpoints-file", endpointsPath, "--socket-dir", directory.PathFor("sockets"));

        var endpoints = await host.WaitForEndpointsAsync(endpointsPath);
        // The client loads the same file the same way, so its proxies implement the interfaces the host serves.
        var calculator = ContractAssembly.Load(SampleServices.AssemblyPath).Services.Single(s => s.Contract.Name == "ICalculator").Contract;
        using var factory = RpcClientFactory.CreateDefault();
        foreach (var binding in new[] { BindingNames.WcfUds, BindingNames.GrpcUds, BindingNames.FastUds })
        {
            var proxy = typeof(RpcClientFactory).GetMethod(nameof(RpcClientFactory.Create))!.MakeGenericMethod(calculator).Invoke(factory, [binding, endpoints[binding]])!;
            Assert.Equal(3.5, calculator.GetMethod("Add")!.Invoke(proxy, [1.25, 2.25]));
            // The sample lists its contracts for the fast binding's generator: its proxy is that code's, not the reflection path's DispatchProxy.
            Assert.Equal(binding != BindingNames.FastUds, proxy is System.Reflection.DispatchProxy);
            await RpcClientFactory.ReleaseAsync(proxy);
        }

        Assert.Contains($"Serving from {SampleServices.AssemblyPath}: RpcCompare.Samples.Services.Calculator.ICalculator (Calculator), RpcCompare.Samples.Services.Orders.IOrderService (OrderService)",
            host.Output, StringComparison.Ordinal);
        // Generated in the team's assembly, found there by the host's copy of the binding.
        Assert.Contains("Binding fast-uds serves ICalculator (RpcCompare.Samples.Services) through generated code", host.Output, StringComparison.Ordinal);
        Assert.Contains("Binding fast-uds serves IOrderService (RpcCompare.Samples.Services) through generated code", host.Output, StringComparison.Ordinal);
        Assert.Equal(0, await host.TerminateAsync());
    }

    [Fact]
    public async Task Host_WithContractsThatAreNoAssembly_ExitsWithTheReason()
    {
        using var directory = new TemporaryDirectory();
        var path = directory.PathFor("Team.Services.dll");
        await File.WriteAllTextAsync(path, "not an assembly");
        await using var host = HostProcess.Start("--contracts", path, "--bindings", "pipes");

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains($"rpccompare-host: Contract assembly '{path}': it is not a .NET assembly", host.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Host_AskedForAnUnknownBinding_ExitsNamingTheBindingsItOffers()
    {
        await using var host = HostProcess.Start("--bindings", "pipes,carrier-pigeon");

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains("Unknown binding 'carrier-pigeon'", host.Output, StringComparison.Ordinal);
        Assert.Contains(string.Join(", ", BindingNames.All.Where(b => b != BindingNames.InProc)), host.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Host_UnknownOption_ExitsWithUsageError()
    {
        await using var host = HostProcess.Start("--bindngs", "pipes");

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains("unknown option '--bindngs'", host.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Host_Help_DescribesOptionsAndExits()
    {
        await using var host = HostProcess.Start("--help");

        Assert.Equal(0, await host.WaitForExitAsync());
        Assert.Contains("--endpoints-file", host.Output, StringComparison.Ordinal);
        Assert.Contains("In this build: wcf-nettcp, wcf-uds, wcf-http, grpc-tcp, grpc-uds, fast-tcp, fast-uds, pipes.", host.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Rpcc_WithoutAddressOrEndpoints_ExplainsWhatItNeeds()
    {
        var result = await Rpcc.RunAsync(["call", "-b", "pipes", "Ping"]);

        Assert.Equal(RpccCommands.UsageError, result.ExitCode);
        Assert.Contains("--address", result.Error, StringComparison.Ordinal);
    }
}
