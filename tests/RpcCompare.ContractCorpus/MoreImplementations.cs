using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

// More implementations for the tests that host the corpus on every binding.
public sealed class ParameterShapes : IParameterShapes
{
    public int Fired { get; private set; }

    public int Divide(int value, out int remainder, ref string label, int divisor)
    {
        remainder = value % divisor;
        label = $"{label}: {value} / {divisor}";
        return value / divisor;
    }

    public void Reset() => Fired = 0;

    public void Fire(string message) => Fired++;

    public Task NotifyAsync(string message) => message.Length == 0 ? throw new ArgumentException("empty message", nameof(message)) : Task.CompletedTask;
}

public sealed class ValueTaskForms : IValueTaskForms
{
    public ValueTask<int> AddAsync(int a, int b, CancellationToken cancellationToken) => ValueTask.FromResult(a + b);

    public ValueTask ClearAsync() => ValueTask.CompletedTask;

    public int Multiply(int a, int b) => a * b;

    public ValueTask<int> MultiplyAsync(int a, int b) => ValueTask.FromResult(a * b);

    public ValueTask<string> EchoAsync(string text) => ValueTask.FromResult(text + text);
}

public sealed class Shapes : IShapes
{
    public double Area(Shape shape) => shape switch
    {
        Circle c => Math.PI * c.Radius * c.Radius,
        Square s => s.Side * s.Side,
        Triangle t => t.Base * t.Height / 2,
        Hexagon h => 3 * Math.Sqrt(3) / 2 * h.Side * h.Side,
        _ => 0,
    };

    public Shape Largest(Shape[] shapes) => shapes.MaxBy(Area)!;

    public Shape Scale(Shape shape, double factor) => shape switch
    {
        Circle c => new Circle { Label = c.Label + "*", Radius = c.Radius * factor },
        Square s => new Square { Label = s.Label + "*", Side = s.Side * factor },
        Triangle t => new Triangle { Label = t.Label + "*", Base = t.Base * factor, Height = t.Height * factor },
        Hexagon h => new Hexagon { Label = h.Label + "*", Side = h.Side * factor },
        _ => new Shape { Label = shape.Label + "*" },
    };
}

public sealed class DataShapes : IDataShapes
{
    public string Describe(BaseType value) => value switch
    {
        DerivedType d => $"derived {d.zebra}{d.bird}{d.cat}{d.albatross}",
        _ => $"base {value.zebra}",
    };

    public void Normalize(ref PlainOldObject value) => value = new PlainOldObject { Field = value.Field * 10, Property = value.Property.ToUpperInvariant() };

    public DerivedType Reverse(DerivedType value) => new()
    {
        zebra = value.bird, bird = value.zebra, parrot = value.antelope, antelope = value.parrot, dog = value.cat, cat = value.dog, albatross = value.albatross + "!",
    };

    public PlainOldObject Twice(PlainOldObject value) => new() { Field = value.Field * 2, Property = value.Property + value.Property };

    public RenamedMembers Rename(RenamedMembers value, string suffix) => value;

    public int? Maybe(int? value, List<string> items, Dictionary<string, int> counts) =>
        value is null ? null : value + (items?.Count ?? -100) + (counts?.Values.Sum() ?? -1000);

    public NoMembers Nothing(NoMembers value) => value;
}

public sealed class SyncAndTaskForms : ISyncAndTaskForms
{
    public int Add(int a, int b) => a + b;

    public Task<int> AddAsync(int a, int b) => Task.FromResult(a + b);
}

public sealed class RenamedOperations : IRenamedOperations
{
    public int Add(int a, int b) => a + b;

    public double Add(double a, double b) => a + b + 0.5;

    public Task<long> TotalAsync(int[] values) => Task.FromResult(values?.Sum(v => (long)v) ?? -1);

    public int CountAsync(string text) => text.Length;
}

/// <summary>The Begin/End pattern over a task, as WCF services written before Task wrote it.</summary>
public sealed class AsyncPattern : IAsyncPattern
{
    public IAsyncResult BeginLookup(string key, AsyncCallback callback, object state)
    {
        var lookup = Task.FromResult(key.ToUpperInvariant());
        var completion = new TaskCompletionSource<string>(state);
        lookup.ContinueWith(
            t =>
            {
                completion.SetResult(t.Result);
                callback?.Invoke(completion.Task);
            },
            TaskScheduler.Default);
        return completion.Task;
    }

    public string EndLookup(IAsyncResult result) => ((Task<string>)result).GetAwaiter().GetResult();
}

public sealed class TypedMessages : ITypedMessages
{
    public PlaceResponse Place(PlaceRequest request) => new() { OrderId = (request.Quantity * 100) + request.Tenant.Length + request.Sku.Length };
}

/// <summary>Files kept in memory: the last upload is "latest"; hello.txt always exists.</summary>
public sealed class StreamedFiles : IStreamedFiles
{
    private byte[] _latest = [];

    public Stream Download(string path) => path == "hello.txt"
        ? new MemoryStream("hello, streamed world"u8.ToArray())
        : throw new FaultException($"No file '{path}'.");

    public void Upload(Stream data)
    {
        using var copy = new MemoryStream();
        data.CopyTo(copy);
        _latest = copy.ToArray();
    }

    public Task<Stream> DownloadLatestAsync() => Task.FromResult<Stream>(new MemoryStream(_latest, writable: false));
}
