using System.Collections.Concurrent;
using System.Runtime.Serialization;
using System.ServiceModel;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Bindings.Wcf.NetTcp;
using RpcCompare.Bindings.Wcf.Uds;
using RpcCompare.Testing;
using CoreWcf = CoreWCF;

namespace RpcCompare.Bindings.Wcf.Tests;

/// <summary>
/// The instancing knobs of <see cref="WcfBindingOptions"/> reach CoreWCF: two calls meet inside the
/// service only when the configuration lets them run at the same time. A call that waits alone
/// for its partner gives up after <see cref="Wait"/> and says so; nothing here is timed.
/// </summary>
public sealed class InstancingTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(4);

    public static TheoryData<string> SessionBindings() => [BindingNames.WcfNetTcp, BindingNames.WcfUds];

    public static TheoryData<string> AllBindings() => [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp];

    [Theory]
    [MemberData(nameof(SessionBindings))]
    public async Task ProductSetting_SingleMultiple_TakesConcurrentCallsOfOneSession(string binding)
    {
        await using var host = await StartAsync(null);
        await using var clients = new Clients(binding, host);
        var client = clients.New();

        Assert.Equal<bool[]>([true, true], await MeetAsync(client, client));
    }

    [Theory]
    [MemberData(nameof(AllBindings))]
    public async Task SingleSingle_SerializesCallsOfDifferentClients(string binding)
    {
        await using var host = await StartAsync((CoreWcf.InstanceContextMode.Single, CoreWcf.ConcurrencyMode.Single));
        await using var clients = new Clients(binding, host);

        Assert.Equal<bool[]>([false, true], await MeetAsync(clients.New(), clients.New()));
    }

    [Theory]
    [MemberData(nameof(SessionBindings))]
    public async Task PerSessionSingle_SerializesOneSessionsCalls_ButNotDifferentSessions(string binding)
    {
        await using var host = await StartAsync((CoreWcf.InstanceContextMode.PerSession, CoreWcf.ConcurrencyMode.Single));
        await using var clients = new Clients(binding, host);
        var client = clients.New();

        Assert.Equal<bool[]>([false, true], await MeetAsync(client, client));
        Assert.Equal<bool[]>([true, true], await MeetAsync(clients.New(), clients.New()));
    }

    private static Task<InProcessHost> StartAsync((CoreWcf.InstanceContextMode Instancing, CoreWcf.ConcurrencyMode Concurrency)? setting) =>
        InProcessHost.StartAsync(configureServices: services =>
        {
            services.AddRpcService<IRendezvous, Rendezvous>();
            if (setting is { } s)
            {
                services.Configure<WcfNetTcpBindingOptions>(o => (o.InstanceContextMode, o.ConcurrencyMode) = s);
                services.Configure<WcfUdsBindingOptions>(o => (o.InstanceContextMode, o.ConcurrencyMode) = s);
                services.Configure<WcfHttpBindingOptions>(o => (o.InstanceContextMode, o.ConcurrencyMode) = s);
            }
        });

    /// <summary>Clients of one binding, each from a provider of its own: its own channel factory, connection and session.</summary>
    private sealed class Clients(string binding, InProcessHost host) : IAsyncDisposable
    {
        private readonly List<IRendezvous> _created = [];

        public IRendezvous New()
        {
            IBindingClientProvider provider = binding switch
            {
                BindingNames.WcfNetTcp => new WcfNetTcpClientProvider(),
                BindingNames.WcfUds => new WcfUdsClientProvider(),
                _ => new WcfHttpClientProvider(),
            };
            _created.Add(provider.Create<IRendezvous>(host.Address(binding)));
            return _created[^1];
        }

        public async ValueTask DisposeAsync()
        {
            foreach (var client in _created)
            {
                await ((IAsyncDisposable)client).DisposeAsync();
            }
        }
    }

    // Both calls at once in a room of their own; the answers sorted (false first): which call got in first is not the point.
    private static async Task<bool[]> MeetAsync(IRendezvous first, IRendezvous second)
    {
        var room = Guid.NewGuid().ToString("N");
        var results = new ConcurrentQueue<bool>();
        async Task CallAsync(IRendezvous client) => results.Enqueue((await client.MeetAsync(new MeetRequest { Room = room, WaitSeconds = Wait.TotalSeconds })).Met);
        await Task.WhenAll(CallAsync(first), CallAsync(second)).Bounded();
        return [.. results.Order()];
    }

    [ServiceContract(Name = "rpccompare.tests.Rendezvous", Namespace = "urn:rpccompare:tests")]
    public interface IRendezvous
    {
        [OperationContract]
        Task<MeetReply> MeetAsync(MeetRequest request);
    }

    [DataContract]
    public sealed class MeetRequest
    {
        [DataMember(Order = 1)]
        public string Room { get; set; } = "";

        [DataMember(Order = 2)]
        public double WaitSeconds { get; set; }
    }

    [DataContract]
    public sealed class MeetReply
    {
        [DataMember(Order = 1)]
        public bool Met { get; set; }
    }

    /// <summary>A call waits in its room for a second one; both learn whether they were there together.</summary>
    public sealed class Rendezvous : IRendezvous
    {
        private readonly ConcurrentDictionary<string, (TaskCompletionSource Pair, int[] Arrived)> _rooms = new();

        public async Task<MeetReply> MeetAsync(MeetRequest request)
        {
            var room = _rooms.GetOrAdd(request.Room, _ => (new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously), [0]));
            if (Interlocked.Increment(ref room.Arrived[0]) == 2)
            {
                room.Pair.TrySetResult();
            }

            try
            {
                await room.Pair.Task.WaitAsync(TimeSpan.FromSeconds(request.WaitSeconds));
                return new MeetReply { Met = true };
            }
            catch (TimeoutException)
            {
                return new MeetReply { Met = false };
            }
        }
    }
}
