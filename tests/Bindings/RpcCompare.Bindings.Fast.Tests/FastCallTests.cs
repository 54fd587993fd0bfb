using Microsoft.Extensions.DependencyInjection;
using System.ServiceModel;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Security;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// Contracts as teams write them, called over fast-uds: every form, out and ref values, known types,
/// faults, refusals; through the generated code (GeneratedCorpus.cs) and through the reflection path.
/// </summary>
public abstract class FastCallTests(bool generatedCode)
{
    [Fact]
    public async Task SynchronousOperations_AnswerAsTheImplementationDoes()
    {
        await using var server = await StartAsync();
        var calculator = Client<ICalculator>(server);
        var local = new Calculator();

        Assert.Equal(local.Add(2, 3), calculator.Add(2, 3));
        Assert.Equal(local.Subtract(2, 3.5), calculator.Subtract(2, 3.5));
        Assert.Equal(local.Multiply(-2, 3), calculator.Multiply(-2, 3));
        Assert.Equal(double.PositiveInfinity, calculator.Divide(1, 0));
    }

    [Fact]
    public async Task OutAndRefValues_ComeBackToTheCaller()
    {
        await using var server = await StartAsync();
        var shapes = Client<IParameterShapes>(server);
        var label = "seventeen";

        var quotient = shapes.Divide(17, out var remainder, ref label, 5);

        Assert.Equal((3, 2, "seventeen: 17 / 5"), (quotient, remainder, label));
    }

    [Fact]
    public async Task TaskAndValueTaskForms_ReturnTheirResults()
    {
        await using var server = await StartAsync();
        var forms = Client<IValueTaskForms>(server);

        Assert.Equal(5, await forms.AddAsync(2, 3, CancellationToken.None));
        await forms.ClearAsync();
        Assert.Equal(20, forms.Multiply(4, 5));
        Assert.Equal(42, await forms.MultiplyAsync(6, 7));
        Assert.Equal("abab", await forms.EchoAsync("ab"));
    }

    [Fact]
    public async Task AnEmptyCollection_ArrivesEmpty_NotNull()
    {
        // Protobuf writes nothing for an empty or a null array; the receiving side makes it empty (EmptyCollections).
        await using var server = await TestFastServer.StartAsync(o => o.GeneratedCode = generatedCode, s => s.AddRpcService<IRenamedOperations, RenamedOperations>());
        var renamed = Client<IRenamedOperations>(server);

        Assert.Equal((0L, 6L), (await renamed.TotalAsync([]), await renamed.TotalAsync([1, 2, 3])));
    }

    [Fact]
    public async Task KnownTypes_ArriveAsTheirOwnTypes()
    {
        await using var server = await StartAsync();
        var shapes = Client<IShapes>(server);

        var largest = shapes.Largest([new Circle { Label = "c", Radius = 1 }, new Triangle { Label = "t", Base = 3, Height = 4 }]);
        var scaled = shapes.Scale(new Hexagon { Label = "h", Side = 1 }, 2);

        Assert.Equal(("Triangle", "t"), (largest.GetType().Name, largest.Label));
        Assert.Equal(("h*", 2.0), (scaled.Label, Assert.IsType<Hexagon>(scaled).Side));
    }

    [Fact]
    public async Task ADeclaredFault_ReachesTheCallerTyped_AndTheConnectionServesOn()
    {
        await using var server = await StartAsync();
        var orders = Client<IOrderService>(server);
        var bad = new Order { Customer = "Ada", Lines = [new() { Sku = "B-2", Quantity = 0 }] };

        var fault = await Assert.ThrowsAsync<FaultException<OrderFault>>(() => orders.PlaceOrderAsync(bad));

        Assert.Equal(("invalid order line", "quantity must be at least 1", "B-2"), (fault.Reason.ToString(), fault.Detail.Reason, fault.Detail.Sku));
        Assert.Equal(1, await orders.PlaceOrderAsync(new Order { Customer = "Ada", Lines = [new() { Sku = "A-1", Quantity = 1 }] }));
        Assert.Equal(1, server.Server.OpenConnections);
    }

    [Theory]
    [InlineData(RpcErrorCode.InvalidArgument)]
    [InlineData(RpcErrorCode.PathRefused)]
    [InlineData(RpcErrorCode.QuotaExceeded)]
    public async Task ARefusal_KeepsItsCodeAndMessage(RpcErrorCode code)
    {
        await using var server = await StartAsync();

        var refusal = Assert.Throws<RpcServiceException>(() => Client<IProbe>(server).Refuse((int)code));

        Assert.Equal((code, $"refused with {(int)code}"), (refusal.Code, refusal.Message));
    }

    [Fact]
    public async Task AnUnexpectedException_IsInternalWithoutInternals_AndLoggedOnce()
    {
        await using var server = await StartAsync();

        var error = Assert.Throws<RpcServiceException>(() => Client<IProbe>(server).Crash());

        Assert.Equal(RpcErrorCode.Internal, error.Code);
        Assert.DoesNotContain("secret", error.Message, StringComparison.Ordinal);
        Assert.Single(server.Log.Matching("Operation Crash on connection"));
    }

    [Fact]
    public async Task OneWayCalls_ReturnAtOnce_AndReachTheService()
    {
        await using var server = await StartAsync();
        var probe = Client<IProbe>(server);

        probe.Note("a");
        probe.Note("b");

        // The echo comes back after both notes on the same connection, so they were dispatched before it.
        Assert.Equal(7, probe.Echo(7));
        Assert.Equal(["a", "b"], server.Probe.Notes);
    }

    [Fact]
    public async Task TheService_SeesTheCallersUser()
    {
        await using var server = await StartAsync();

        var caller = Client<IProbe>(server).Caller();

        Assert.StartsWith($"uid {PeerCredentials.CurrentUserId} (pid {Environment.ProcessId})", caller, StringComparison.Ordinal);
        Assert.EndsWith("over fast-uds", caller, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ConcurrentCallers_EachGetTheirOwnAnswer()
    {
        await using var server = await StartAsync();
        var probe = Client<IProbe>(server);

        var answers = await Task.WhenAll(Enumerable.Range(0, 16).Select(i => Task.Run(() => Enumerable.Range(0, 50).Select(j => probe.Echo((i * 1000) + j)).ToArray()))).Bounded();

        Assert.All(answers.Index(), a => Assert.Equal(Enumerable.Range(a.Index * 1000, 50), a.Item));
    }

    [Fact]
    public async Task TheBindingsRules_AreCheckedBeforeTheServerListens()
    {
        var provider = new FastClientProvider();

        Assert.Equal(
            ["binding fast-uds cannot carry operation TicksAsync of contract ITicker: an IAsyncEnumerable result (a stream of messages) is not carried by the fast binding yet"],
            provider.Check(typeof(ITicker)).Select(r => r.ToString()));
        Assert.Equal(
            ["binding fast-uds cannot carry contract IChat: the fast binding has no callback channel (CallbackContract IChatCallback)"],
            provider.Check(typeof(IChat)).Where(r => r.Operation is null).Select(r => r.ToString()));
        var refused = await Assert.ThrowsAsync<Carrying.ContractNotCarriedException>(() =>
            TestFastServer.StartAsync(register: s => s.AddRpcService<ITicker, Ticker>()));
        Assert.Contains("ITicker", refused.Message, StringComparison.Ordinal);
    }

    private Task<TestFastServer> StartAsync() => TestFastServer.StartAsync(o => o.GeneratedCode = generatedCode);

    /// <summary>A proxy of the path this class tests: the generated one, or the reflection path's DispatchProxy.</summary>
    private TContract Client<TContract>(TestFastServer server)
        where TContract : class
    {
        var client = server.Client<TContract>(new FastClientOptions { GeneratedCode = generatedCode });
        Assert.Equal(!generatedCode, client is System.Reflection.DispatchProxy);
        return client;
    }

    [ServiceContract(Namespace = "urn:rpccompare:tests:fast")]
    public interface ITicker
    {
        [OperationContract]
        IAsyncEnumerable<Tick> TicksAsync(Tick from);
    }

    [System.Runtime.Serialization.DataContract]
    public sealed class Tick
    {
        [System.Runtime.Serialization.DataMember(Order = 1)]
        public int Number { get; set; }
    }

    private sealed class Ticker : ITicker
    {
        public async IAsyncEnumerable<Tick> TicksAsync(Tick from)
        {
            await Task.Yield();
            yield return from;
        }
    }
}

public sealed class GeneratedFastCallTests() : FastCallTests(generatedCode: true);

public sealed class ReflectionFastCallTests() : FastCallTests(generatedCode: false);
