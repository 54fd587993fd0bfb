using System.Runtime.Serialization;
using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>A base contract in its own namespace: inherited operations keep its name in their actions.</summary>
[ServiceContract(Namespace = "urn:corpus:base")]
public interface IBaseShapes
{
    [OperationContract]
    double Area(Shape shape);
}

/// <summary>Known types three ways: [KnownType] on the base data type, [ServiceKnownType] on the contract and on one operation.</summary>
[ServiceContract(Namespace = "urn:corpus:shapes")]
[ServiceKnownType(typeof(Triangle))]
public interface IShapes : IBaseShapes
{
    [OperationContract]
    Shape Largest(Shape[] shapes);

    [OperationContract]
    [ServiceKnownType(typeof(Hexagon))]
    Shape Scale(Shape shape, double factor);
}

[DataContract(Namespace = "urn:corpus:shapes")]
[KnownType(typeof(Circle))]
[KnownType(typeof(Square))]
public class Shape
{
    [DataMember]
    public string Label { get; set; } = "";
}

[DataContract(Namespace = "urn:corpus:shapes")]
public class Circle : Shape
{
    [DataMember]
    public double Radius { get; set; }
}

[DataContract(Namespace = "urn:corpus:shapes")]
public class Square : Shape
{
    [DataMember]
    public double Side { get; set; }
}

[DataContract(Namespace = "urn:corpus:shapes")]
public class Triangle : Shape
{
    [DataMember]
    public double Base { get; set; }

    [DataMember]
    public double Height { get; set; }
}

[DataContract(Namespace = "urn:corpus:shapes")]
[KnownType(nameof(MoreShapes))]
public class Hexagon : Shape
{
    [DataMember]
    public double Side { get; set; }

    private static IEnumerable<Type> MoreShapes() => [typeof(Circle)];
}
