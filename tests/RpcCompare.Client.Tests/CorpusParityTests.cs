using System.ServiceModel;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.ContractCorpus;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// The contract corpus hosted and called over every binding that carries it: each binding's
/// answers (results, out and ref values, typed faults) must read exactly as the in-process call's.
/// Which bindings carry each contract is part of the expectation, so a binding that starts
/// refusing a shape it carried fails here too.
/// </summary>
public sealed class CorpusParityTests
{
    private static readonly string[] Wcf = [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp];
    // gRPC and fast-uds share one protobuf mapping of the contract (RpcCompare.Protobuf): the same shapes.
    private static readonly string[] Protobuf = [BindingNames.GrpcTcp, BindingNames.GrpcUds, BindingNames.FastTcp, BindingNames.FastUds];

    public static TheoryData<string> CaseNames() => [.. Cases.Keys];

    /// <summary>Every case by contract name; the compatibility matrix reads which bindings each is called over.</summary>
    internal static Dictionary<string, CorpusCase> Cases { get; } = new CorpusCase[]
    {
        new CorpusCase<ICalculator, Calculator>([.. Wcf, .. Protobuf], async c =>
            $"{c.Add(2, 3)} {c.Subtract(2, 3)} {c.Multiply(2, 3)} {c.Divide(3, 2)} {c.Divide(1, 0)}"),
        new CorpusCase<IService1, Service1>([.. Wcf, .. Protobuf], async c =>
        {
            var changed = c.GetDataUsingDataContract(new CompositeType { BoolValue = true, StringValue = "x" });
            var kept = c.GetDataUsingDataContract(new CompositeType { BoolValue = false, StringValue = "" });
            return $"{c.GetData(7)} | {changed.BoolValue} {changed.StringValue} | {kept.BoolValue} '{kept.StringValue}'";
        }),
        new CorpusCase<IOrderService, OrderService>([.. Wcf, .. Protobuf], async c =>
        {
            Order Of(int quantity) => new() { Customer = "Ada", Lines = [new() { Sku = "A-1", Quantity = 2, UnitPrice = 1.25m }, new() { Sku = "B-2", Quantity = quantity }] };
            var first = await c.PlaceOrderAsync(Of(1));
            var fault = await Record(() => c.PlaceOrderAsync(Of(0)));
            var next = await c.PlaceOrderAsync(Of(3));
            await c.CancelOrderAsync(first);
            return $"{next - first} | {fault}";
        }),
        new CorpusCase<IParameterShapes, ParameterShapes>([.. Wcf, .. Protobuf], async c =>
        {
            var label = "seventeen";
            var quotient = c.Divide(17, out var remainder, ref label, 5);
            c.Reset();
            c.Fire("ready");
            var empty = await Record(() => c.NotifyAsync(""));
            await c.NotifyAsync("done");
            return $"{quotient} {remainder} {label} | {empty}";
        }),
        new CorpusCase<IValueTaskForms, ValueTaskForms>(Protobuf, async c =>
        {
            var sum = await c.AddAsync(2, 3, CancellationToken.None);
            await c.ClearAsync();
            return $"{sum} {c.Multiply(4, 5)} {await c.MultiplyAsync(6, 7)} {await c.EchoAsync("ab")}";
        }),
        new CorpusCase<ISyncAndTaskForms, SyncAndTaskForms>(Protobuf, async c => $"{c.Add(2, 3)} {await c.AddAsync(4, 5)}"),
        new CorpusCase<IRenamedOperations, RenamedOperations>([.. Wcf, .. Protobuf], async c =>
            $"{c.Add(2, 3)} {c.Add(2.0, 3.0)} {await c.TotalAsync([1, 2, int.MaxValue])} {await c.TotalAsync([])} {c.CountAsync("four")}"),
        new CorpusCase<IAsyncPattern, AsyncPattern>([], async c => await Task.Factory.FromAsync((callback, state) => c.BeginLookup("key", callback, state!), c.EndLookup, null)),
        new CorpusCase<ITypedMessages, TypedMessages>(Wcf, async c => $"{c.Place(new PlaceRequest { Tenant = "tenant", Sku = "A-1", Quantity = 3 }).OrderId}"),
        new CorpusCase<IShapes, Shapes>([.. Wcf, .. Protobuf], async c =>
        {
            Shape[] shapes = [new Circle { Label = "c", Radius = 1 }, new Square { Label = "s", Side = 2 }, new Triangle { Label = "t", Base = 3, Height = 4 }];
            var largest = c.Largest(shapes);
            var scaled = c.Scale(new Hexagon { Label = "h", Side = 1 }, 2);
            return $"{c.Area(shapes[0]):F4} | {largest.GetType().Name} {largest.Label} | {scaled.GetType().Name} {scaled.Label} {((Hexagon)scaled).Side}";
        }),
        new CorpusCase<IDataShapes, DataShapes>([.. Wcf, .. Protobuf], async c =>
        {
            var reversed = c.Reverse(new DerivedType { zebra = "z", bird = "b", parrot = "p", antelope = "a", dog = "d", cat = "c", albatross = "al" });
            var twice = c.Twice(new PlainOldObject { Field = 21, Property = "ab" });
            var renamed = c.Rename(new RenamedMembers { Zoo = 3, Beta = 4 }, "!");
            var maybe = $"{c.Maybe(1, ["x", "y"], new() { ["a"] = 10 })} {c.Maybe(null, [], [])} {c.Maybe(0, ["x"], new() { ["b"] = 0 })}";
            var described = $"{c.Describe(new DerivedType { zebra = "z", bird = "b", cat = "c", albatross = "a" })} {c.Describe(new BaseType { zebra = "y" })}";
            var normalized = new PlainOldObject { Field = 4, Property = "ab" };
            c.Normalize(ref normalized);
            return $"{reversed.zebra}{reversed.bird}{reversed.parrot}{reversed.antelope}{reversed.dog}{reversed.cat}{reversed.albatross} | {twice.Field} {twice.Property} | {renamed.Zoo} {renamed.Beta} | {maybe} | {c.Nothing(new NoMembers()) is not null} | {described} | {normalized.Field} {normalized.Property}";
        }),
        new CorpusCase<IStreamedFiles, StreamedFiles>([.. Wcf, .. Protobuf], async c =>
        {
            // More than three chunks and not a whole number of them; then nothing at all.
            var sent = Enumerable.Range(0, 200_003).Select(i => (byte)(i * 7)).ToArray();
            c.Upload(new MemoryStream(sent));
            var latest = await ReadAllAsync(await c.DownloadLatestAsync());
            c.Upload(new MemoryStream());
            var empty = await ReadAllAsync(await c.DownloadLatestAsync());
            var hello = System.Text.Encoding.UTF8.GetString(await ReadAllAsync(c.Download("hello.txt")));
            var missing = await Record(() => Task.FromResult(c.Download("missing.txt")));
            return $"{latest.Length} {latest.AsSpan().SequenceEqual(sent)} | {empty.Length} | {hello} | {missing}";
        }),
    }.ToDictionary(c => c.Name);

    private static async Task<byte[]> ReadAllAsync(Stream stream)
    {
        await using (stream)
        {
            using var copy = new MemoryStream();
            await stream.CopyToAsync(copy);
            return copy.ToArray();
        }
    }

    [Theory]
    [MemberData(nameof(CaseNames))]
    public async Task EveryBindingThatCarriesIt_AnswersAsInProc(string name)
    {
        var corpus = Cases[name];
        using var factory = RpcClientFactory.CreateDefault();
        Assert.Equal(corpus.Carriers.Order(), factory.Bindings.Where(b => b is not BindingNames.InProc and not BindingNames.Pipes && factory.Check(b, corpus.Contract).Count == 0).Order());

        await using var host = await InProcessHost.StartAsync(configureServices: corpus.Register, bindings: corpus.Carriers);
        using var withHost = RpcClientFactory.CreateDefault(inProcServices: host.Services);
        var expected = await corpus.RunAsync(withHost, BindingNames.InProc, "").Bounded();
        foreach (var binding in corpus.Carriers)
        {
            var actual = await corpus.RunAsync(withHost, binding, host.Address(binding)).Bounded();
            Assert.True(actual == expected, $"{binding} answered\n  {actual}\nwhere inproc answered\n  {expected}");
        }
    }

    /// <summary>What a call threw, as a caller sees it: the type, reason and a typed fault's detail.</summary>
    private static async Task<string> Record(Func<Task> call)
    {
        try
        {
            await call();
            return "no fault";
        }
        catch (FaultException<OrderFault> e)
        {
            // SOAP 1.1 (wcf-http's BasicHttpBinding) spells SOAP 1.2's Sender and Receiver codes Client and Server.
            var code = e.Code.Name switch { "Client" => "Sender", "Server" => "Receiver", var name => name };
            return $"FaultException<OrderFault> '{e.Reason}' {code} {e.Detail.Reason} {e.Detail.Sku}";
        }
        catch (Exception)
        {
            // An undeclared exception reaches each binding's client in its own words (a generic
            // SOAP fault, a gRPC status); that it failed is what must agree.
            return "failed";
        }
    }

    internal abstract class CorpusCase
    {
        public abstract Type Contract { get; }

        public string Name => Contract.Name;

        public abstract IReadOnlyList<string> Carriers { get; }

        public abstract void Register(IServiceCollection services);

        public abstract Task<string> RunAsync(RpcClientFactory factory, string binding, string address);

        /// <summary>The same calls against the implementation hosted and called by ServiceModel.Grpc alone.</summary>
        public abstract Task<(string? Transcript, string? Failure)> RunOnServiceModelGrpcAsync();
    }

    private sealed class CorpusCase<TContract, TImplementation>(IReadOnlyList<string> carriers, Func<TContract, Task<string>> script) : CorpusCase
        where TContract : class
        where TImplementation : class, TContract
    {
        public override Type Contract => typeof(TContract);

        public override IReadOnlyList<string> Carriers => carriers;

        public override void Register(IServiceCollection services) => services.AddRpcService<TContract, TImplementation>();

        public override Task<(string? Transcript, string? Failure)> RunOnServiceModelGrpcAsync() =>
            ServiceModelGrpcHost.RunAsync<TContract, TImplementation>(script);

        public override async Task<string> RunAsync(RpcClientFactory factory, string binding, string address)
        {
            var client = factory.Create<TContract>(binding, address);
            try
            {
                return await script(client);
            }
            finally
            {
                await RpcClientFactory.ReleaseAsync(client);
            }
        }
    }
}
